/**
 * The whole job of a created or restored schedule, as every format shows it (SPEC §5, trust
 * model): each argv element, the working directory, every env name with its literal value or the
 * variable it reads (`fromEnv NAME`, never a value), or the method, url, header names and a digest
 * of the body. Never cut by a budget: this is what will run.
 */
import type { EnvValue, JobDefinition, RunJobDefinition } from '../compile/definition.js';
import { formatDurationMs } from '../compile/duration.js';
import { canonicalJson, digestOf } from '../compile/digest.js';
import { makeVisible, quoteVisibly } from '../shared/visible-text.js';
import { manifestValue } from './field-names.js';

/** One field of the job: its manifest name and its values, each already visible and unambiguous (strings JSON-quoted); none is `[]`. */
export interface JobLine {
  field: string;
  values: string[];
}


function describeValues(record: Record<string, EnvValue>, withLiterals: boolean): string[] {
  const entries = Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.map(([name, value]) => {
    if (typeof value !== 'string') return `${makeVisible(name)}=fromEnv ${makeVisible(value.fromEnv)}`;
    return withLiterals ? `${makeVisible(name)}=${quoteVisibly(value)}` : makeVisible(name);
  });
}

/**
 * A workflow shows its step names in order, then every step's whole job under `steps.NAME.`,
 * with its own timeout and retry when it sets them: each step is something that will run.
 */
export function describeJob(job: RunJobDefinition): JobLine[] {
  if (job.type !== 'steps') return describeSingleJob(job);
  const lines: JobLine[] = [{ field: 'steps', values: job.steps.map((step) => quoteVisibly(step.name)) }];
  for (const step of job.steps) {
    const prefix = `steps.${makeVisible(step.name)}.`;
    lines.push(...describeSingleJob(step).map((line) => ({ ...line, field: prefix + line.field })));
    if (step.timeoutMs !== undefined) lines.push({ field: `${prefix}timeout`, values: [formatDurationMs(step.timeoutMs)] });
    if (step.retry !== undefined) {
      const { maxAttempts, backoff, initialDelayMs, maxDelayMs } = step.retry;
      lines.push({ field: `${prefix}retry`, values: [`maxAttempts ${maxAttempts}`, `backoff ${backoff}`, `initialDelay ${formatDurationMs(initialDelayMs)}`, `maxDelay ${formatDurationMs(maxDelayMs)}`] });
    }
  }
  return lines;
}

function describeSingleJob(job: JobDefinition): JobLine[] {
  if (job.type === 'command') {
    return [
      { field: 'type', values: ['command'] },
      { field: 'command', values: job.command.map(quoteVisibly) },
      { field: 'cwd', values: [quoteVisibly(job.cwd)] },
      { field: 'env', values: describeValues(job.env, true) },
    ];
  }
  const body = job.body === undefined ? [] : [`${digestOf(job.body).slice(0, 'sha256:'.length + 12)} (${canonicalJson(job.body).length} characters of JSON)`];
  const expectStatus = manifestValue('job.expectStatus', job.expectStatus) as Array<string | number>;
  return [
    { field: 'type', values: ['http'] },
    { field: 'method', values: [quoteVisibly(job.method)] },
    { field: 'url', values: [quoteVisibly(job.url)] },
    { field: 'headers', values: describeValues(job.headers, false) },
    { field: 'body', values: body },
    { field: 'expectStatus', values: expectStatus.map(String) },
  ];
}

/** `command: "sh", "-c", "curl … | sh"` for terminals. */
export function formatJobLineText(line: JobLine): string {
  return `${line.field}: ${line.values.length > 0 ? line.values.join(', ') : '(none)'}`;
}
