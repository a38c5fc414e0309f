/**
 * Every cronform command, by oclif id, as a loader: the one place a command is registered.
 * A loader imports its module only when called, so bin/run.js (through selected-table.ts) loads the
 * command being run and nothing else, and index.ts builds oclif's full explicit table from the same
 * list for help, topics and suggestions. A topic command uses `:` in its id (`github:comment` is run
 * as `cronform github comment`). scripts/generate-cli-help.js renders the root help from this table
 * at build time, so a new command appears in `cronform --help` after `npm run build`.
 */
export type CommandModule = { default: unknown };

export const commandLoaders = {
  apply: () => import('./apply.js'),
  alerts: () => import('./alerts.js'),
  approve: () => import('./approve.js'),
  backfill: () => import('./backfill.js'),
  cancel: () => import('./cancel.js'),
  dev: () => import('./dev.js'),
  diff: () => import('./diff.js'),
  export: () => import('./export.js'),
  'github:comment': () => import('./github/comment.js'),
  guard: () => import('./guard.js'),
  history: () => import('./history.js'),
  import: () => import('./import.js'),
  init: () => import('./init.js'),
  logs: () => import('./logs.js'),
  migrate: () => import('./migrate.js'),
  pause: () => import('./pause.js'),
  plan: () => import('./plan.js'),
  preview: () => import('./preview.js'),
  progress: () => import('./progress.js'),
  report: () => import('./report.js'),
  resume: () => import('./resume.js'),
  retry: () => import('./retry.js'),
  runner: () => import('./runner.js'),
  runs: () => import('./runs.js'),
  'runs:show': () => import('./runs/show.js'),
  schema: () => import('./schema.js'),
  status: () => import('./status.js'),
  trigger: () => import('./trigger.js'),
  validate: () => import('./validate.js'),
} satisfies Record<string, () => Promise<CommandModule>>;

export type CommandId = keyof typeof commandLoaders;

/**
 * The id argv names, trying the longest space-separated id first (`runs show` before `runs`), or
 * undefined when argv starts with a flag or names no command (help, suggestions: the full table).
 */
export function commandIdFromArgv(argv: readonly string[]): CommandId | undefined {
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-')) break;
    words.push(arg);
  }
  for (let length = words.length; length > 0; length -= 1) {
    const id = words.slice(0, length).join(':');
    if (Object.hasOwn(commandLoaders, id)) return id as CommandId;
  }
  return undefined;
}
