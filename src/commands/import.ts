import { Args, Flags } from '@oclif/core';
import type { ImportedSchedule } from '../import/convert-crontab.js';
import { importCrontab, type ImportCrontabResult } from '../operations/import-crontab.js';
import { systemClock } from '../shared/clock.js';
import { formatDiagnostic, hasErrors, type Diagnostic } from '../shared/diagnostics.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { CronformCommand } from './cronform-command.js';

/** What --json prints: each converted line with its manifest, the files written, the problems. */
export interface ImportReport {
  schedules: Array<Pick<ImportedSchedule, 'line' | 'manifest'>>;
  written: string[];
  diagnostics: Diagnostic[];
}

export default class Import extends CronformCommand {
  static override summary = 'Adopt existing schedules: convert a crontab into manifests.';
  static override description =
    'Each job line becomes one Schedule manifest with an explicit time zone (CRON_TZ/TZ, else --timezone), argv without a shell unless the line uses shell syntax, and safe defaults (overlap SKIP_NEW, misfire RUN_ONCE). @reboot and % (standard input) are refused; environment values that look like secrets become { fromEnv: NAME }. Nothing is written while a line fails, unless --allow-partial.';
  static override examples = [
    '<%= config.bin %> import --from crontab /etc/cron.d/billing --system --timezone Europe/Berlin',
    'crontab -l > crontab.txt && <%= config.bin %> import --from crontab crontab.txt --out-dir schedules/imported',
  ];
  static override args = {
    file: Args.string({ description: 'the crontab file', required: true }),
  };
  static override flags = {
    from: Flags.string({ description: 'source format', options: ['crontab'], required: true }),
    timezone: Flags.string({ description: 'IANA zone of lines without CRON_TZ/TZ above them (the zone the crontab ran in)' }),
    'out-dir': Flags.string({ description: 'where to write the manifests', default: 'schedules' }),
    dir: Flags.string({ description: 'manifest directory whose schedule names are taken', default: 'schedules' }),
    system: Flags.boolean({ description: 'system crontab format (/etc/crontab, /etc/cron.d): a user column before the command' }),
    stdout: Flags.boolean({ description: 'print the manifests as one YAML stream instead of writing files' }),
    'allow-partial': Flags.boolean({ description: 'write the lines that converted even when others failed' }),
  };

  async run(): Promise<ImportReport> {
    const { args, flags } = await this.parse(Import);
    const result = await importCrontab({
      file: args.file,
      cwd: process.cwd(),
      nowMs: systemClock.nowMs(),
      outDir: flags['out-dir'],
      manifestDir: flags.dir,
      timezone: flags.timezone,
      systemFormat: flags.system,
      toStdout: flags.stdout,
      allowPartial: flags['allow-partial'],
    });
    if (result.stream !== null) this.log(result.stream.trimEnd());
    // With --stdout the manifests own stdout, so problems and the summary go to stderr.
    const report = (line: string) => (flags.stdout ? this.logToStderr(line) : this.log(line));
    for (const diagnostic of result.diagnostics) report(formatDiagnostic(diagnostic));
    report(summarize(result, flags.stdout));
    const printed: ImportReport = { schedules: result.schedules.map((s) => ({ line: s.line, manifest: s.manifest })), written: result.written, diagnostics: result.diagnostics };
    return this.finish(printed, hasErrors(result.diagnostics) ? ExitCodes.ERROR : ExitCodes.SUCCESS);
  }
}

function summarize(result: ImportCrontabResult, toStdout: boolean): string {
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const converted = `${result.schedules.length} ${result.schedules.length === 1 ? 'schedule' : 'schedules'} converted`;
  const failed = errors > 0 ? `, ${errors} ${errors === 1 ? 'error' : 'errors'}` : '';
  if (toStdout) return `${converted}${failed}`;
  const written = result.written.length > 0 ? `, written: ${result.written.join(', ')}` : ', nothing written';
  return `${converted}${failed}${written}. Review them, then run \`cronform validate\` and \`cronform plan\`.`;
}
