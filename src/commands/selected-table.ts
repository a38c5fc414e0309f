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
  apply: () => import('./apply.js'),
  approve: () => import('./approve.js'),
  backfill: () => import('./backfill.js'),
  cancel: () => import('./cancel.js'),
  dev: () => import('./dev.js'),
  diff: () => import('./diff.js'),
  export: () => import('./export.js'),
  history: () => import('./history.js'),
  import: () => import('./import.js'),
  logs: () => import('./logs.js'),
  migrate: () => import('./migrate.js'),
  pause: () => import('./pause.js'),
  plan: () => import('./plan.js'),
  preview: () => import('./preview.js'),
  report: () => import('./report.js'),
  resume: () => import('./resume.js'),
  retry: () => import('./retry.js'),
  runner: () => import('./runner.js'),
  schema: () => import('./schema.js'),
  status: () => import('./status.js'),
  trigger: () => import('./trigger.js'),
  validate: () => import('./validate.js'),
};

/**
 * A command that shares its name with a topic: `runs [name]` and `runs show <runId>`. oclif picks
 * between them by the ids in the table (`runs show 4` is runs:show, `runs daily` is runs), so
 * both must be in it.
 */
const topics: Record<string, () => Promise<CommandTable>> = {
  runs: async () => ({ runs: (await import('./runs.js')).default, 'runs:show': (await import('./runs/show.js')).default }),
};

async function selectTable(name: string | undefined): Promise<CommandTable> {
  if (name !== undefined && Object.hasOwn(topics, name)) return topics[name]!();
  const load = name !== undefined && Object.hasOwn(single, name) ? single[name] : undefined;
  if (load) return { [name as string]: (await load()).default };
  return (await import('./index.js')).commands;
}

export const commands: CommandTable = await selectTable(process.argv[2]);
