import type { HttpJobDefinition } from '../../compile/definition.js';
import type { ExecutionOutcome, RunContext } from '../run-types.js';
import type { ExecutorSettings } from './execute-options.js';
import { failedOutcome, stoppedError, stoppedStatus, type StopReason } from './job-outcome.js';
import { startTimer } from './long-timer.js';
import { OutputTail } from './output-tail.js';
import { placeholderValues, substitutePlaceholders, type PlaceholderValues, type Prepared } from './placeholders.js';
import { resolveValues } from './resolve-values.js';

interface PreparedRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/**
 * Performs one HTTP request. Redirects are not followed: a 3xx is the job's answer and is judged
 * by expectStatus, so a POST is never replayed as a GET and headers carrying secrets never go to
 * a host the manifest does not name.
 */
export async function runHttpJob(job: HttpJobDefinition, context: RunContext, settings: ExecutorSettings): Promise<ExecutionOutcome> {
  const startedMs = settings.clock.nowMs();
  const elapsedMs = (): number => settings.clock.nowMs() - startedMs;
  const prepared = prepareRequest(job, context, settings);
  if (!prepared.ok) return failedOutcome(prepared.error, elapsedMs());
  if (settings.signal?.aborted) {
    return { ...failedOutcome(stoppedError('abort', settings.timeoutMs, settings.signal), elapsedMs()), status: 'CANCELLED' };
  }

  const request = prepared.value;
  const controller = new AbortController();
  let stopReason: StopReason | null = null;
  const stop = (reason: StopReason): void => {
    if (stopReason !== null) return;
    stopReason = reason;
    controller.abort();
  };
  const onAbort = (): void => stop('abort');
  const cancelTimeout = startTimer(settings.timeoutMs, () => stop('timeout'));
  settings.signal?.addEventListener('abort', onAbort, { once: true });
  // A server may reflect the request's headers (an echo endpoint, an error page quoting them).
  const bodyTail = new OutputTail(settings.maxOutputBytes, settings.redactor);
  try {
    const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual', signal: controller.signal });
    // The timeout covers the whole exchange, body included; only its tail is kept.
    if (response.body) {
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) bodyTail.write(read.value);
    }
    const base = { exitCode: null, httpStatus: response.status, stdoutTail: bodyTail.toText(), stderrTail: null, durationMs: elapsedMs() };
    if (job.expectStatus.some(([low, high]) => response.status >= low && response.status <= high)) return { ...base, status: 'SUCCEEDED', error: null };
    return { ...base, status: 'FAILED', error: `HTTP ${response.status} (expected ${describeExpected(job.expectStatus)})` };
  } catch (error) {
    if (stopReason !== null) {
      return { ...failedOutcome(stoppedError(stopReason, settings.timeoutMs, settings.signal), elapsedMs()), status: stoppedStatus(stopReason), stdoutTail: bodyTail.totalBytes > 0 ? bodyTail.toText() : null };
    }
    return failedOutcome(`request failed: ${describeRequestFailure(error)}`, elapsedMs());
  } finally {
    cancelTimeout();
    settings.signal?.removeEventListener('abort', onAbort);
  }
}

function prepareRequest(job: HttpJobDefinition, context: RunContext, settings: ExecutorSettings): Prepared<PreparedRequest> {
  const placeholders = placeholderValues(context);
  // Values land inside a URL, so they are escaped; a placeholder never changes the URL's structure.
  const url = substitutePlaceholders(job.url, placeholders, 'url', encodeURIComponent);
  if (!url.ok) return url;
  let parsed: URL;
  try {
    parsed = new URL(url.value);
  } catch {
    return { ok: false, error: 'url is not a valid absolute URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, error: `url must use http or https (got ${parsed.protocol})` };

  const jobHeaders = resolveValues(job.headers, 'headers', placeholders, settings.env);
  if (!jobHeaders.ok) return jobHeaders;
  const headers = new Headers({ 'user-agent': 'cronform' });
  for (const [name, value] of Object.entries(jobHeaders.value)) {
    // Checked here because undici's error message would quote the (possibly secret) value; a
    // trailing newline from a secret file is the usual cause.
    if (/[\r\n\0]/.test(value)) return { ok: false, error: `header ${name} has an invalid value (contains a line break or NUL)` };
    try {
      headers.set(name, value);
    } catch {
      return { ok: false, error: `header ${JSON.stringify(name)} is not a valid header` };
    }
  }
  // The run context is set last: a job cannot send another run's identity.
  headers.set('idempotency-key', context.idempotencyKey);
  headers.set('x-cronform-run-id', String(context.runId));
  headers.set('x-cronform-attempt', String(context.attempt));

  const method = job.method.toUpperCase();
  const body = prepareBody(job.body, placeholders);
  if (!body.ok) return body;
  if (body.value !== undefined && (method === 'GET' || method === 'HEAD')) return { ok: false, error: `a ${method} request cannot have a body` };
  if (body.value !== undefined && typeof job.body !== 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return { ok: true, value: { url: parsed.href, method, headers, body: body.value } };
}

/**
 * A string body is sent as written; any other value as JSON. Placeholders are substituted in a
 * string body and in the string values (not keys) of a JSON body, raw: JSON.stringify escapes them.
 */
function prepareBody(body: unknown, placeholders: PlaceholderValues): Prepared<string | undefined> {
  if (body === undefined || body === null) return { ok: true, value: undefined };
  if (typeof body === 'string') return substitutePlaceholders(body, placeholders, 'body');
  let error: string | null = null;
  const json = JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== 'string' || error !== null) return value;
    const substituted = substitutePlaceholders(value, placeholders, 'body');
    if (substituted.ok) return substituted.value;
    error = substituted.error;
    return value;
  });
  return error === null ? { ok: true, value: json } : { ok: false, error };
}

function describeExpected(ranges: Array<[number, number]>): string {
  return ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(', ');
}

/** fetch rejects with "fetch failed" and the socket error as its cause; the cause's code says what went wrong. */
function describeRequestFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  for (const candidate of [cause, error]) {
    const code = (candidate as NodeJS.ErrnoException | null)?.code;
    if (typeof code === 'string') return code;
  }
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
