/**
 * `cronform import --from crontab`: a classic crontab → one Schedule manifest per job line, pure.
 *
 * What cron left implicit becomes explicit: the time zone (from `CRON_TZ`/`TZ`, else the one the
 * user names; never the server's), the shell (only when the line uses shell syntax), and what
 * happens on overlap and after an outage (cron runs overlapping copies and silently drops missed
 * runs; imported schedules get cronform's safe defaults instead). Nothing secret is written: an
 * environment value that looks like a credential becomes `{ fromEnv: NAME }`, and a command line
 * holding one is refused.
 */
import type { ScheduleManifest } from '../manifest/schema-types.js';
import { matchSecretValue } from '../manifest/secret-patterns.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { isValidTimezone } from '../time/zone.js';
import { applyEnvironmentLine, createEnvironment, invalidZone, type Environment } from './crontab-environment.js';
import { readCrontabLines, type CrontabLine } from './crontab-lines.js';
import { ImportCodes } from './import-codes.js';
import { claimUniqueName, deriveJobName } from './job-names.js';
import { splitShellWords } from './shell-words.js';

export interface CrontabImportOptions {
  /** The crontab's path as shown to the user. */
  file: string;
  /** Zone of the lines above any `CRON_TZ`/`TZ` (the zone the crontab's machine runs in). */
  timezone?: string | undefined;
  /** `/etc/crontab` and `/etc/cron.d/*`: a user column between the time fields and the command. */
  systemFormat?: boolean;
  /** Schedule names already used in the repository. */
  takenNames?: Iterable<string>;
}

/** YAML comments that explain the manifest, by where they belong. */
export interface ImportNotes {
  header: string[];
  dayMatch?: string;
  command?: string;
  defaults: string;
}

export interface ImportedSchedule {
  /** The crontab line the schedule came from. */
  line: number;
  manifest: ScheduleManifest;
  notes: ImportNotes;
}

export interface CrontabConversion {
  schedules: ImportedSchedule[];
  /** Errors (a line that was not converted) and warnings (converted, but different from cron). */
  diagnostics: Diagnostic[];
}

const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const MAX_DESCRIPTION_COMMENT_LINES = 3;
const DEFAULTS_NOTE = 'cron starts a new copy while the last one runs and drops runs missed while the machine is down; these skip a run while the previous one is active and run once after an outage';

export function convertCrontab(text: string, options: CrontabImportOptions): CrontabConversion {
  const diagnostics: Diagnostic[] = [];
  const at = (line: number, column?: number) => ({ file: options.file, line, ...(column ? { column } : {}) });
  const defaultZone = options.timezone === undefined ? null : { zone: options.timezone, valid: isValidTimezone(options.timezone) };
  if (defaultZone && !defaultZone.valid) diagnostics.push(invalidZone(options.timezone!, '--timezone', { file: options.file }));

  const env = createEnvironment();
  const taken = new Set(options.takenNames ?? []);
  const schedules: ImportedSchedule[] = [];
  const linesWithoutZone: number[] = [];
  const lines = readCrontabLines(text, { systemFormat: options.systemFormat ?? false });

  lines.forEach((entry, index) => {
    if (entry.kind === 'malformed') {
      diagnostics.push({ severity: 'error', code: ImportCodes.MALFORMED_LINE, message: entry.message, ...at(entry.line, 1) });
    } else if (entry.kind === 'env') {
      applyEnvironmentLine(entry, env, diagnostics, at(entry.line, 1));
    } else if (entry.kind === 'job') {
      const zone = env.cronTz ?? env.tz ?? defaultZone;
      if (!zone) {
        linesWithoutZone.push(entry.line);
        return;
      }
      // An invalid zone was reported on its CRON_TZ/TZ line (or for --timezone) already.
      if (!zone.valid) return;
      const converted = convertJobLine(entry, env, zone.zone, describeFromComments(lines, index), { options, taken, diagnostics });
      if (converted) schedules.push(converted);
    }
  });

  if (linesWithoutZone.length > 0) {
    diagnostics.push({
      severity: 'error',
      code: ImportCodes.TIMEZONE_MISSING,
      message: `no CRON_TZ or TZ line above ${linesWithoutZone.length === 1 ? 'line' : 'lines'} ${linesWithoutZone.join(', ')}: cronform needs an explicit time zone for every schedule`,
      hint: 'pass --timezone with the IANA zone the crontab\'s machine runs in (e.g. --timezone Europe/Berlin); cronform never falls back to the server\'s zone',
      ...at(linesWithoutZone[0]!, 1),
    });
  }
  return { schedules, diagnostics };
}

interface JobContext {
  options: CrontabImportOptions;
  taken: Set<string>;
  diagnostics: Diagnostic[];
}

function convertJobLine(
  entry: Extract<CrontabLine, { kind: 'job' }>,
  env: Environment,
  timezone: string,
  description: string | undefined,
  context: JobContext,
): ImportedSchedule | undefined {
  const { diagnostics, options } = context;
  const at = (column: number) => ({ file: options.file, line: entry.line, column });
  const error = (code: string, column: number, message: string, hint?: string): undefined => {
    diagnostics.push({ severity: 'error', code, message, ...(hint ? { hint } : {}), ...at(column) });
    return undefined;
  };

  const cron = entry.schedule.startsWith('@') ? entry.schedule.toLowerCase() : entry.schedule;
  if (cron === '@reboot') {
    return error(ImportCodes.REBOOT_UNSUPPORTED, 1, '@reboot is not a schedule: it runs when the machine starts, and cronform runs jobs at times',
      'start it from the service manager instead (a systemd unit, the container entrypoint), or give it a real schedule');
  }
  if (cron.startsWith('@') && !MACROS.has(cron)) {
    return error(ImportCodes.UNKNOWN_MACRO, 1, `unknown macro ${entry.schedule}`, `known macros: ${[...MACROS].join(' ')}`);
  }

  const percent = findUnescapedPercent(entry.command);
  if (percent >= 0) {
    return error(ImportCodes.PERCENT_STDIN, entry.commandColumn + percent,
      'an unescaped % in a crontab command starts the job\'s standard input (the rest of the line is fed to it, each further % a newline); cronform jobs have no standard input',
      'write a literal percent sign as \\% (e.g. date +\\%F), or move the input into a file or a script');
  }
  const command = entry.command.replace(/\\%/g, '%');
  const { words, shellSyntax } = splitShellWords(command);
  for (const word of words) {
    const secret = matchSecretValue(word);
    if (secret) {
      return error(ImportCodes.SECRET_IN_COMMAND, entry.commandColumn, `the command contains a credential (${secret.kind} ${secret.redacted}); it would be committed to git`,
        'put it in the runner\'s environment, reference it with { fromEnv: NAME } in spec.job.env, and use $NAME in the command');
    }
  }

  const useShell = shellSyntax.length > 0;
  const argv: [string, ...string[]] = useShell ? [env.shell, '-c', command] : (words as [string, ...string[]]);
  warnAboutRelativeProgram(words[0] ?? '', at(entry.commandColumn), diagnostics);
  if (entry.user !== null) {
    diagnostics.push({
      severity: 'warning',
      code: ImportCodes.SYSTEM_USER_IGNORED,
      message: `the job ran as user ${entry.user}; cronform runs it as the runner's user (recorded as the crontab-user label)`,
      ...at(1),
    });
  }

  const name = claimUniqueName(deriveJobName(words), context.taken);
  const fields = cron.split(' ');
  const dayMatch = fields.length === 5 ? chooseDayMatch(fields[2]!, fields[4]!) : undefined;
  const variables = Object.fromEntries(env.variables);
  const manifest: ScheduleManifest = {
    apiVersion: 'cronform/v1',
    kind: 'Schedule',
    metadata: {
      name,
      ...(description ? { description } : {}),
      labels: { 'imported-from': 'crontab', ...(entry.user !== null ? { 'crontab-user': entry.user } : {}) },
    },
    spec: {
      cron,
      timezone,
      ...(dayMatch ? { dayMatch: dayMatch.value } : {}),
      job: { type: 'command', command: argv, ...(Object.keys(variables).length > 0 ? { env: variables } : {}) },
      overlap: 'SKIP_NEW',
      misfire: 'RUN_ONCE',
      ...(env.randomDelayMinutes ? { jitter: `${env.randomDelayMinutes}m` } : {}),
    },
  };
  return {
    line: entry.line,
    manifest,
    notes: {
      header: [`Imported from ${options.file} line ${entry.line} by \`cronform import --from crontab\`.`],
      ...(dayMatch ? { dayMatch: dayMatch.note } : {}),
      ...(useShell ? { command: `Runs through ${env.shell} -c because the crontab line uses ${joinWords(shellSyntax)}; without shell syntax cronform runs argv directly.` } : {}),
      defaults: DEFAULTS_NOTE,
    },
  };
}

/**
 * Vixie cron and cronie: when day-of-month and day-of-week are both restricted, a day matching
 * either fires, unless one of them starts with `*` (such as `*\/2`): then both must match.
 */
function chooseDayMatch(dayOfMonth: string, dayOfWeek: string): { value: 'any' | 'all'; note: string } | undefined {
  const unrestricted = (field: string) => field === '*' || field === '?';
  if (unrestricted(dayOfMonth) || unrestricted(dayOfWeek)) return undefined;
  if (dayOfMonth.startsWith('*') || dayOfWeek.startsWith('*')) {
    return { value: 'all', note: 'cron required both day fields to match because one starts with "*"' };
  }
  return { value: 'any', note: 'cron fired when either day field matched' };
}

function findUnescapedPercent(command: string): number {
  for (let i = 0; i < command.length; i++) {
    if (command[i] === '\\' && command[i + 1] === '%') i += 1;
    else if (command[i] === '%') return i;
  }
  return -1;
}

function warnAboutRelativeProgram(program: string, location: Pick<Diagnostic, 'file' | 'line' | 'column'>, diagnostics: Diagnostic[]): void {
  if (!program.includes('/') || program.startsWith('/') || program.startsWith('~')) return;
  diagnostics.push({
    severity: 'warning',
    code: ImportCodes.RELATIVE_PROGRAM,
    message: `${program} is a relative path: cron started jobs in the user's home directory, cronform starts them in spec.job.cwd (default: the repository root)`,
    hint: 'use an absolute path, or set spec.job.cwd',
    ...location,
  });
}

/** The comment lines right above a job (no blank line between), minus commented-out jobs and crontab's column header. */
function describeFromComments(lines: readonly CrontabLine[], jobIndex: number): string | undefined {
  const comments: string[] = [];
  for (let i = jobIndex - 1; i >= 0; i--) {
    const entry = lines[i]!;
    if (entry.kind !== 'comment') break;
    comments.unshift(entry.text);
  }
  const useful = comments.filter((text) => text !== '' && !/^[-0-9*@]/.test(text) && !/\bm\s+h\s+dom\s+mon\s+dow\b/i.test(text));
  const kept = useful.slice(-MAX_DESCRIPTION_COMMENT_LINES).join(' ').trim();
  return kept || undefined;
}

function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
