import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { Args, Flags } from '@oclif/core';
import { parseDurationMs } from '../compile/duration.js';
import { resolveAuthor } from '../operations/actor.js';
import { applyPlan, type ApplyResult } from '../operations/apply.js';
import { withDatabase } from '../operations/database.js';
import { loadDesired, planAgainstDatabase } from '../operations/plan.js';
import { planHasChanges, type Plan } from '../plan/plan-types.js';
import { parsePlanJson } from '../plan/render-json.js';
import { PLAN_KEY_ENV, verifyPlanSignature } from '../plan/plan-signature.js';
import { renderPlanText } from '../plan/render-text.js';
import { systemClock } from '../shared/clock.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { createPalette } from '../shared/terminal.js';
import { CronformCommand } from './cronform-command.js';
import { changeFlags } from './run-change.js';

export default class Apply extends CronformCommand {
  static override summary = 'Apply a saved plan, or plan and apply the manifests in one step.';
  static override examples = ['<%= config.bin %> apply plan.json', '<%= config.bin %> apply --auto-approve --reason "weekly report moved to 09:00"'];
  // apply shows the plan and asks before it writes, and `github comment --apply-log` posts its text: the output is for people.
  static override enableJsonFlag = false;
  static override args = {
    plan: Args.string({ description: 'plan file written by `cronform plan --out`', required: false }),
  };
  static override flags = {
    dir: Flags.string({ description: 'manifest directory (when planning here)', default: 'schedules' }),
    'auto-approve': Flags.boolean({ description: 'apply without asking (required without a terminal)' }),
    ...changeFlags('applies'),
    'lock-timeout': Flags.string({ description: 'how long to wait for a concurrent apply', default: '5m' }),
    'allow-mass-archive': Flags.boolean({ description: 'allow archiving many schedules at once' }),
  };

  async run(): Promise<ApplyResult | { planId: string; applied: [] }> {
    const { args, flags } = await this.parse(Apply);
    const cwd = process.cwd();
    // Applying the manifests of --dir: an uncommitted change there makes the recorded sha `<sha>-dirty`.
    const author = resolveAuthor({ actor: flags.actor, reason: flags.reason }, process.env, cwd, args.plan ? undefined : flags.dir);
    let lockTimeoutMs: number;
    try {
      lockTimeoutMs = parseDurationMs(flags['lock-timeout']);
    } catch {
      this.fail(`--lock-timeout must be a duration like 30s or 5m (got ${JSON.stringify(flags['lock-timeout'])})`);
    }
    const savedPlan = args.plan ? this.readPlan(args.plan) : undefined;
    return withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd }, async (database) => {
      let plan = savedPlan;
      if (!plan) {
        const nowMs = systemClock.nowMs();
        const desired = await loadDesired({ dir: flags.dir, cwd, nowMs, allowMassArchive: flags['allow-mass-archive'] });
        plan = await planAgainstDatabase(database, desired, { nowMs, allowMassArchive: flags['allow-mass-archive'] });
        this.log(renderPlanText(plan, { color: createPalette().level > 0 }));
        if (plan.errors.length > 0) this.exit(ExitCodes.ERROR);
        if (!planHasChanges(plan)) return { planId: plan.planId, applied: [] as [] };
        if (!flags['auto-approve'] && !(await this.confirm())) this.fail('apply cancelled: nothing was changed');
      }
      // A stale plan exits 4 and a lock timeout 5: CronformCommand.catch maps the errors applyPlan throws.
      const result = await applyPlan(database, plan, { author, clock: systemClock, lockTimeoutMs });
      this.log(result.applied.length === 0 ? 'Nothing to apply.' : `Applied plan ${result.planId}: ${result.applied.map((a) => `${a.action} ${a.name} (v${a.version})`).join(', ')}`);
      return result;
    });
  }

  private readPlan(file: string): Plan {
    let plan: Plan;
    try {
      // Checked (and the signature removed) before anything else reads it: with CRONFORM_PLAN_KEY
      // set here, only a file signed under it is applied.
      plan = verifyPlanSignature(parsePlanJson(readFileSync(file, 'utf8')), process.env[PLAN_KEY_ENV]).plan;
    } catch (error) {
      this.fail(`${file}: ${(error as Error).message}`);
    }
    if (plan.against.kind !== 'database') this.fail(`${file} was planned against git ref ${plan.against.ref}, not a database: plan against the database to apply`);
    return plan;
  }

  private async confirm(): Promise<boolean> {
    if (!process.stdin.isTTY) this.fail('refusing to apply without --auto-approve: no terminal to confirm on');
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return (await prompt.question('Apply these changes? Only "yes" is accepted: ')).trim() === 'yes';
    } finally {
      prompt.close();
    }
  }
}
