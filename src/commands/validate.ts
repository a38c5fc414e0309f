import { appendFileSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import { validateManifests, type ValidateResult } from '../operations/validate.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { systemClock } from '../shared/clock.js';
import { formatDiagnostic, hasErrors, summarizeDiagnostics } from '../shared/diagnostics.js';
import { createPalette } from '../shared/terminal.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { CronformCommand } from './cronform-command.js';

/** What --json and --format json print. */
export interface ValidateReport {
  valid: boolean;
  summary: { files: number; schedules: number; errors: number; warnings: number };
  runsPerDay: ValidateResult['runsPerDay'];
  diagnostics: Diagnostic[];
}

export default class Validate extends CronformCommand {
  static override summary = 'Validate and compile schedule manifests.';
  static override description = 'Checks YAML syntax, the JSON Schema and every semantic rule (cron, time zone, policies, secrets), and reports all problems with file:line:column. Exit 0 when valid, 1 when any error is found. --format github prints GitHub Actions annotations (and the full list to the job summary), --format sarif a SARIF 2.1.0 log for code scanning.';
  static override examples = ['<%= config.bin %> validate', '<%= config.bin %> validate schedules/ other/jobs.yaml --json', '<%= config.bin %> validate --format github', '<%= config.bin %> validate --format sarif > cronform.sarif'];
  static override strict = false;
  static override args = {
    paths: Args.string({ description: 'files or directories (default: schedules/)', required: false }),
  };
  static override flags = {
    format: Flags.string({ description: 'output format (--json is --format json)', options: ['text', 'json', 'github', 'sarif'], default: 'text' }),
  };

  async run(): Promise<ValidateReport> {
    const { argv, flags } = await this.parse(Validate);
    const paths = argv.length > 0 ? (argv as string[]) : ['schedules'];
    const result = await validateManifests(paths, { cwd: process.cwd(), nowMs: systemClock.nowMs(), withRunsPerDay: true });
    const summary = summarizeDiagnostics(result.diagnostics, result.fileCount);
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    const report: ValidateReport = { valid: errors === 0, summary: { files: result.fileCount, schedules: result.schedules.length, errors, warnings: result.diagnostics.length - errors }, runsPerDay: result.runsPerDay, diagnostics: result.diagnostics };
    // Under --json oclif prints the report that run returns, and nothing else.
    const format = this.jsonEnabled() ? 'json' : flags.format;
    if (format === 'json') {
      this.log(JSON.stringify(report, null, 2));
    } else if (format === 'sarif') {
      // The CI formats share the plan's markdown escaping, which loads the plan renderers and `diff`:
      // imported only when asked for, not on every validate.
      const { renderSarif } = await import('./validate-formats.js');
      this.log(renderSarif(result.diagnostics, { version: this.config.version }).trimEnd());
    } else if (format === 'github') {
      const { renderGithubReport } = await import('./validate-formats.js');
      const report = renderGithubReport(result.diagnostics, summary);
      for (const command of report.commands) this.log(command);
      // Outside Actions there is no job summary: the problems without an annotation are printed instead.
      const summaryFile = process.env.GITHUB_STEP_SUMMARY;
      if (summaryFile) appendFileSync(summaryFile, report.summary);
      else for (const diagnostic of report.notAnnotated) this.log(formatDiagnostic(diagnostic));
      this.log(summary);
    } else {
      const color = createPalette();
      for (const diagnostic of result.diagnostics) {
        const text = formatDiagnostic(diagnostic);
        this.log(diagnostic.severity === 'error' ? text.replace(` error ${diagnostic.code} `, ` ${color.red('error')} ${color.bold(diagnostic.code)} `) : text.replace(` warning ${diagnostic.code} `, ` ${color.yellow('warning')} ${color.bold(diagnostic.code)} `));
      }
      if (result.diagnostics.length > 0) this.log('');
      this.log(hasErrors(result.diagnostics) ? color.red(summary) : `${color.green(summary)} · ${result.schedules.length} ${result.schedules.length === 1 ? 'schedule' : 'schedules'} compiled · ${formatRunsPerDay(result)}`);
    }
    return this.finish(report, hasErrors(result.diagnostics) ? ExitCodes.ERROR : ExitCodes.SUCCESS);
  }
}

function formatRunsPerDay(result: ValidateResult): string {
  const figures = result.runsPerDay;
  if (!figures) return '';
  return `${formatFigure(figures.averageTotal)} runs/day on average (busiest days add up to ${formatFigure(figures.peakTotal)})`;
}

/**
 * What `new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value)` writes, without
 * creating the formatter: its first use loads ICU's number data, ~10 ms of every validate. ICU starts
 * from the shortest decimal that reads back as the value (what String gives), rounds it to two
 * decimals, halves away from zero, drops trailing zeros and groups thousands with commas. Values
 * String writes with an exponent, and negative ones (-0 too), are left to Intl.
 */
function formatFigure(value: number): string {
  const shortest = String(value);
  if (!/^\d+(\.\d+)?$/.test(shortest) || Object.is(value, -0)) return new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(value);
  let [whole = '', fraction = ''] = shortest.split('.');
  if (fraction.length > 2) {
    const hundredths = BigInt(`${whole}${fraction.slice(0, 2)}`) + (fraction.charCodeAt(2) >= 53 ? 1n : 0n);
    const digits = hundredths.toString().padStart(3, '0');
    [whole, fraction] = [digits.slice(0, -2), digits.slice(-2)];
  }
  const decimals = fraction.replace(/0+$/, '');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${decimals ? `.${decimals}` : ''}`;
}
