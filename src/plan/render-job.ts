/**
 * The whole job of a created or restored schedule, as every format shows it (SPEC §5, trust
 * model): each argv element, the working directory, every env name with its literal value or the
 * variable it reads (`fromEnv NAME`, never a value), or the method, url, header names and a digest
 * of the body. Never cut by a budget: this is what will run.
 */
import type { EnvValue, JobDefinition, QueueJobDefinition, RunJobDefinition } from '../compile/definition.js';
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
 * with its own timeout and retry when it sets them: each step is something that will run. The
 * definition's inputs follow, since the job's `{{inputs.NAME}}` placeholders become their text.
 */
export function describeJob(job: RunJobDefinition, inputs?: Record<string, string>, payload?: Record<string, unknown>): JobLine[] {
  return [...describeJobOnly(job), ...describeInputs(inputs), ...describePayload(payload)];
}

/** Beyond this many characters of JSON the payload is shown cut, with its length and digest. */
export const PAYLOAD_SHOWN_CHARACTERS = 600;

/**
 * The payload handed to the job (CRONFORM_PAYLOAD, a queue job's `payload`): data, not code, but
 * the job acts on it (`{ mode: drop-all }`), so a new schedule shows it. Canonical JSON (keys
 * sorted), invisible characters escaped; a long one is cut with its length and digest, like the
 * payload diff of a changed schedule (cut between code points, never inside a surrogate pair).
 */
function describePayload(payload: Record<string, unknown> | undefined): JobLine[] {
  if (!payload || Object.keys(payload).length === 0) return [];
  const json = canonicalJson(payload);
  if (json.length <= PAYLOAD_SHOWN_CHARACTERS) return [{ field: 'payload', values: [makeVisible(json)] }];
  const digest = digestOf(payload).slice(0, 'sha256:'.length + 12);
  const head = Array.from(json).slice(0, PAYLOAD_SHOWN_CHARACTERS).join('');
  return [{ field: 'payload', values: [`${makeVisible(head)}…`, `(${json.length} characters of JSON, ${digest})`] }];
}

/** Every input with its template: `{{inputs.NAME}}` puts that text into what runs. */
function describeInputs(inputs: Record<string, string> | undefined): JobLine[] {
  if (!inputs || Object.keys(inputs).length === 0) return [];
  const entries = Object.entries(inputs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [{ field: 'inputs', values: entries.map(([name, template]) => `${makeVisible(name)}=${quoteVisibly(template)}`) }];
}

function describeJobOnly(job: RunJobDefinition): JobLine[] {
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
  if (job.type === 'queue') return describeQueueJob(job);
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

/** Every field of a queue job, defaults included: the target system, task or function and how it is called. */
function describeQueueJob(job: QueueJobDefinition): JobLine[] {
  const lines: JobLine[] = [{ field: 'type', values: ['queue'] }, { field: 'system', values: [job.system] }];
  const scalar = (field: string, value: unknown) => {
    if (value !== undefined) lines.push({ field, values: [typeof value === 'string' ? quoteVisibly(value) : String(value)] });
  };
  if (job.system === 'graphile-worker') {
    scalar('task', job.task);
    scalar('queueName', job.queueName);
    scalar('priority', job.priority);
    scalar('maxAttempts', job.maxAttempts);
  } else if (job.system === 'pg-boss') {
    scalar('name', job.name);
    lines.push({ field: 'options', values: Object.entries(job.options).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, value]) => `${makeVisible(key)}=${JSON.stringify(value)}`) });
  } else {
    scalar('function', job.function);
    const args = Object.entries(job.arguments).sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, source]) => `${makeVisible(name)} => ${source}`);
    lines.push({ field: 'arguments', values: args.length > 0 ? args : ['(one jsonb argument: the whole queue payload)'] });
  }
  // The database is named by its variable, never its URL (which holds credentials).
  lines.push({ field: 'url', values: [job.url === undefined ? "(cronform's database: one transaction)" : `fromEnv ${makeVisible(job.url.fromEnv)}`] });
  return lines;
}

/** `command: "sh", "-c", "curl … | sh"` for terminals. */
export function formatJobLineText(line: JobLine): string {
  return `${line.field}: ${line.values.length > 0 ? line.values.join(', ') : '(none)'}`;
}
