/**
 * The command table bin/run.js gives oclif: only the command being run, when argv names one.
 * oclif imports its explicit table whole before running anything, and index.ts imports every
 * command module with the database, runner and plan code behind them (~200 ms of start-up that
 * `validate` or `plan` alone never use; validate runs on every push and plan on every pull
 * request, both with latency targets). Anything else (help, a topic such as `github comment`,
 * a mistyped name) gets the full table, so oclif's help and suggestions are unchanged.
 */
type CommandTable = Record<string, unknown>;

const single: Record<string, () => Promise<{ default: unknown }>> = {
  alerts: () => import('./alerts.js'),
  apply: () => import('./apply.js'),
  approve: () => import('./approve.js'),
  backfill: () => import('./backfill.js'),
  cancel: () => import('./cancel.js'),
  dev: () => import('./dev.js'),
  diff: () => import('./diff.js'),
  export: () => import('./export.js'),
  history: () => import('./history.js'),
  import: () => import('./import.js'),
  migrate: () => import('./migrate.js'),
  pause: () => import('./pause.js'),
  plan: () => import('./plan.js'),
  preview: () => import('./preview.js'),
  resume: () => import('./resume.js'),
  retry: () => import('./retry.js'),
  runner: () => import('./runner.js'),
  runs: () => import('./runs.js'),
  schema: () => import('./schema.js'),
  status: () => import('./status.js'),
  trigger: () => import('./trigger.js'),
  validate: () => import('./validate.js'),
};

async function selectTable(name: string | undefined): Promise<CommandTable> {
  const load = name !== undefined && Object.hasOwn(single, name) ? single[name] : undefined;
  if (load) return { [name as string]: (await load()).default };
  return (await import('./index.js')).commands;
}

export const commands: CommandTable = await selectTable(process.argv[2]);
