import Alerts from './alerts.js';
import Apply from './apply.js';
import Approve from './approve.js';
import Backfill from './backfill.js';
import Cancel from './cancel.js';
import Dev from './dev.js';
import Diff from './diff.js';
import Export from './export.js';
import GithubComment from './github/comment.js';
import History from './history.js';
import Import from './import.js';
import Migrate from './migrate.js';
import Pause from './pause.js';
import Plan from './plan.js';
import Preview from './preview.js';
import Resume from './resume.js';
import Retry from './retry.js';
import RunnerCommand from './runner.js';
import Runs from './runs.js';
import Schema from './schema.js';
import Status from './status.js';
import Trigger from './trigger.js';
import Validate from './validate.js';

// oclif "explicit" command discovery: a fixed table is faster to load than a directory scan.
export const commands = {
  alerts: Alerts,
  apply: Apply,
  approve: Approve,
  backfill: Backfill,
  cancel: Cancel,
  dev: Dev,
  diff: Diff,
  export: Export,
  'github:comment': GithubComment,
  history: History,
  import: Import,
  migrate: Migrate,
  pause: Pause,
  plan: Plan,
  preview: Preview,
  resume: Resume,
  retry: Retry,
  runner: RunnerCommand,
  runs: Runs,
  schema: Schema,
  status: Status,
  trigger: Trigger,
  validate: Validate,
};
