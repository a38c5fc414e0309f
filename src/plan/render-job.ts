/**
 * The whole job of a created or restored schedule, as every format shows it (SPEC §5, trust
 * model): each argv element, the working directory, every env name with its literal value or the
 * variable it reads (`fromEnv NAME`, never a value), or the method, url, header names and a digest
 * of the body. Never cut by a budget: this is what will run.
 */
import type { EnvValue, JobDefinition } from '../compile/definition.js';
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

export function describeJob(job: JobDefinition): JobLine[] {
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
