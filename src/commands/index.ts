import Apply from './apply.js';
import Dev from './dev.js';
import Diff from './diff.js';
import History from './history.js';
import Migrate from './migrate.js';
import Plan from './plan.js';
import Preview from './preview.js';
import RunnerCommand from './runner.js';
import Validate from './validate.js';

// oclif "explicit" command discovery: a fixed table is faster to load than a directory scan.
export const commands = {
  apply: Apply,
  dev: Dev,
  diff: Diff,
  history: History,
  migrate: Migrate,
  plan: Plan,
  preview: Preview,
  runner: RunnerCommand,
  validate: Validate,
};
