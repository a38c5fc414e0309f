/**
 * Schedule names for imported crontab lines, derived from what the line runs:
 * `/usr/bin/php /var/www/artisan schedule:run` → `artisan-schedule-run`,
 * `cd /srv/app && ./bin/backup.sh --full > /dev/null` → `backup`. Names follow the manifest rule
 * (`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, at most 63 characters) and are made unique with `-2`, `-3`…
 */

const MAX_NAME_LENGTH = 63;
/** Room kept for a `-NN` suffix, so a deduplicated name never has to be cut again. */
const BASE_NAME_LENGTH = MAX_NAME_LENGTH - 4;
const FALLBACK_NAME = 'crontab-job';

/** Programs that run another program: the name comes from what they run. */
const WRAPPERS = new Set(['env', 'nice', 'ionice', 'nohup', 'timeout', 'flock', 'chronic', 'sudo', 'exec', 'time', 'run-one', 'setlock', 'cronic', 'sh', 'bash', 'dash', 'zsh']);
/** Wrappers whose first non-option argument is theirs, not the wrapped program (`timeout 5m cmd`, `flock /tmp/lock cmd`). */
const WRAPPERS_WITH_ARGUMENT = new Set(['timeout', 'flock', 'setlock']);
const INTERPRETERS = /^(?:python[0-9.]*|node|nodejs|ruby|perl|php[0-9.]*|java|deno|bun|npx|Rscript)$/;
/** Shell builtins that prepare a command rather than being the job. */
const PREPARATION = new Set(['cd', 'export', 'source', '.', 'set', 'umask', 'ulimit', 'test', '[', 'true', 'sleep']);
const SCRIPT_EXTENSION = /\.(?:sh|bash|py|js|mjs|cjs|ts|php|rb|pl|jar)$/;

/**
 * The name for one job. `words` are the command's words (from `splitShellWords`); for a shell
 * command the segment that looks like the job is chosen, skipping `cd dir &&` and the like.
 */
export function deriveJobName(words: readonly string[]): string {
  for (const segment of splitSegments(words)) {
    const name = nameSegment(segment);
    if (name) return name;
  }
  return FALLBACK_NAME;
}

/** Returns `base`, or `base-2`, `base-3`… whichever is not taken yet, and records it as taken. */
export function claimUniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, BASE_NAME_LENGTH)
    .replace(/-+$/g, '');
}

function splitSegments(words: readonly string[]): string[][] {
  const segments: string[][] = [[]];
  for (const word of words) {
    // Operators written without spaces (`a&&b`, `x|y`) end a segment inside one word.
    for (const piece of word.split(/(&&|\|\||\||;|&(?![0-9]))/)) {
      if (/^(?:&&|\|\||\||;|&)$/.test(piece)) segments.push([]);
      else if (piece) segments[segments.length - 1]!.push(piece);
    }
  }
  return segments.filter((segment) => segment.length > 0);
}

function nameSegment(segment: readonly string[]): string | undefined {
  const words = segment.filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && !/^[0-9]*[<>]/.test(word));
  let i = 0;
  if (PREPARATION.has(words[0] ?? '')) return undefined;
  while (i < words.length) {
    const program = basename(words[i]!);
    if (WRAPPERS.has(program) || INTERPRETERS.test(program)) {
      i = skipOptions(words, i + 1, program);
      if (WRAPPERS_WITH_ARGUMENT.has(program)) i = skipOptions(words, i + 1, program);
      continue;
    }
    break;
  }
  const program = words[i];
  if (program === undefined) return undefined;
  const parts = [basename(program).replace(SCRIPT_EXTENSION, '')];
  const subcommand = words[i + 1];
  // `artisan schedule:run`, `manage.py clearsessions`: a plain word after the program names the task.
  if (subcommand && /^[A-Za-z][A-Za-z0-9:_-]*$/.test(subcommand)) parts.push(subcommand);
  return slugify(parts.join('-')) || undefined;
}

/** Options that take a separate value, per wrapper (`nice -n 10`, `sudo -u www-data`, `flock -w 5`). */
const OPTIONS_WITH_VALUE: Record<string, readonly string[]> = {
  nice: ['-n'],
  ionice: ['-c', '-n', '-p'],
  sudo: ['-u', '-g'],
  flock: ['-w', '-E'],
  timeout: ['-s', '-k'],
  env: ['-u'],
};

/** Skips `-x`, `--flag` and option values; for `python -m module` stops at the module: it is the program. */
function skipOptions(words: readonly string[], start: number, program: string): number {
  let i = start;
  while (i < words.length && words[i]!.startsWith('-')) {
    if (words[i] === '-m' && INTERPRETERS.test(program)) return i + 1;
    if (OPTIONS_WITH_VALUE[program]?.includes(words[i]!)) i += 1;
    i += 1;
  }
  return i;
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
