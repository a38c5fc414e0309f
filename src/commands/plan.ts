import { writeFileSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { planChanges } from '../operations/plan.js';
import type { Plan } from '../plan/plan-types.js';
import { renderPlanJson } from '../plan/render-json.js';
import { PLAN_KEY_ENV, signPlan } from '../plan/plan-signature.js';
import { renderPlanMarkdown } from '../plan/render-markdown.js';
import { renderPlanText } from '../plan/render-text.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { createPalette } from '../shared/terminal.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';
import { exitCodeForPlan, findingsAtOrAbove, formatFailOnReason, type FailOn } from './plan-exit.js';

export default class PlanCommand extends CronformCommand {
  static override summary = 'Show what apply would change, and how risky it is.';
  static override examples = ['<%= config.bin %> plan', '<%= config.bin %> plan --out plan.json --format markdown --fail-on high', '<%= config.bin %> plan --against-ref origin/main'];
  static override flags = {
    dir: Flags.string({ description: 'manifest directory', default: 'schedules' }),
    out: Flags.string({ description: 'also write the plan as JSON to this file (input of apply)' }),
    format: Flags.string({ description: 'output format (--json is --format json)', options: ['text', 'markdown', 'json'], default: 'text' }),
    'detailed-exitcode': Flags.boolean({ description: 'exit 2 when there are changes' }),
    'fail-on': Flags.string({ description: 'exit 3 when an unaccepted finding is at or above this level', options: ['medium', 'high'] }),
    'against-ref': Flags.string({ description: 'compare with the manifests at this git ref instead of the database' }),
    'allow-mass-archive': Flags.boolean({ description: 'allow archiving more than 10 schedules or 20% at once, or all when no manifest is found' }),
    ...databaseFlags,
  };

  async run(): Promise<Plan> {
    const { flags } = await this.parse(PlanCommand);
    const plan = await planChanges({
      dir: flags.dir,
      cwd: process.cwd(),
      nowMs: systemClock.nowMs(),
      againstRef: flags['against-ref'],
      allowMassArchive: flags['allow-mass-archive'],
      database: { databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() },
    });
    // With CRONFORM_PLAN_KEY set (CI), the file is signed: apply where the key is set checks it.
    const key = process.env[PLAN_KEY_ENV];
    if (flags.out) {
      let signed: Plan;
      try {
        signed = key ? signPlan(plan, key) : plan;
      } catch (error) {
        this.fail((error as Error).message);
      }
      writeFileSync(flags.out, renderPlanJson(signed));
    }
    // Under --json oclif prints the plan that run returns (the same bytes as --format json), and nothing else.
    if (flags.format === 'json') this.log(renderPlanJson(plan).trimEnd());
    else if (flags.format === 'markdown') this.log(renderPlanMarkdown(plan));
    else this.log(renderPlanText(plan, { color: createPalette().level > 0 }));
    const failOn = flags['fail-on'] as FailOn | undefined;
    const exitCode = exitCodeForPlan(plan, { detailedExitCode: flags['detailed-exitcode'], failOn });
    // On stderr in every format: stdout stays the plan (json parsable, markdown postable).
    if (exitCode === ExitCodes.RISK_NOT_ACCEPTED && failOn) this.logToStderr(formatFailOnReason(findingsAtOrAbove(plan, failOn), failOn));
    return this.finish(plan, exitCode);
  }
}
