/**
 * What a GitHub API answer means for the caller, pure: whether to try again (and after how long),
 * and how to explain a failure so the person reading the CI log can fix it.
 *
 * GitHub's rules (REST docs, "rate limits" and "troubleshooting"): a primary rate limit is a 403 or
 * 429 with `x-ratelimit-remaining: 0`, resetting at `x-ratelimit-reset` (epoch seconds); a secondary
 * rate limit is a 403 or 429 with `retry-after` (seconds), or without it a message saying so, in
 * which case one waits at least a minute. 5xx answers are transient.
 */

export interface HeaderReader {
  get(name: string): string | null;
}

export type RetryDecision = { retry: false } | { retry: true; waitMs: number; reason: string };

const SERVER_ERROR_WAIT_MS = 1_000;
const SECONDARY_LIMIT_DEFAULT_WAIT_MS = 60_000;

export function decideRetry(status: number, headers: HeaderReader, message: string, nowMs: number): RetryDecision {
  if (status >= 500 && status <= 599) return { retry: true, waitMs: SERVER_ERROR_WAIT_MS, reason: `GitHub answered ${status}` };
  if (status !== 403 && status !== 429) return { retry: false };
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) {
    return { retry: true, waitMs: Number(retryAfter) * 1000, reason: 'secondary rate limit' };
  }
  const reset = primaryLimitResetMs(status, headers);
  if (reset !== null) return { retry: true, waitMs: Math.max(0, reset - nowMs) + 1000, reason: 'rate limit exhausted' };
  if (/secondary rate limit|abuse/i.test(message) || status === 429) {
    return { retry: true, waitMs: SECONDARY_LIMIT_DEFAULT_WAIT_MS, reason: 'secondary rate limit' };
  }
  return { retry: false };
}

/** Epoch milliseconds at which an exhausted primary rate limit resets, or null if that is not the answer. */
export function primaryLimitResetMs(status: number, headers: HeaderReader): number | null {
  if ((status !== 403 && status !== 429) || headers.get('x-ratelimit-remaining') !== '0') return null;
  const reset = Number(headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : null;
}

export interface FailureContext {
  method: string;
  path: string;
  repository: string;
  status: number;
  /** GitHub's `message` field, or the status text. */
  message: string;
  /** GitHub's `errors[].message` / `errors[].code` details (422). */
  details: string[];
  headers: HeaderReader;
}

/** One sentence for the CI log: what failed, why, and what to change. */
export function describeFailure(context: FailureContext): string {
  const what = `${context.method} ${context.path}`;
  const said = context.message ? `: ${context.message}` : '';
  const reset = primaryLimitResetMs(context.status, context.headers);
  if (reset !== null) return `GitHub rate limit exhausted (${what}); it resets at ${new Date(reset).toISOString()}`;
  if ((context.status === 403 || context.status === 429) && /rate limit|abuse/i.test(context.message)) {
    return `GitHub secondary rate limit (${what}${said}); try again in a few minutes`;
  }
  switch (context.status) {
    case 401:
      return `GitHub rejected the token (401${said}): set GITHUB_TOKEN to a valid token`;
    case 403:
      return `GitHub refused ${what} (403${said}): the token needs write access to pull request comments (in a workflow: permissions: pull-requests: write); pull requests from forks only get a read-only token`;
    case 404:
      return `GitHub found nothing at ${what} (404${said}): check GITHUB_REPOSITORY (${context.repository}) and the pull request number, and that the token can see the repository`;
    case 422: {
      const details = context.details.length > 0 ? ` (${context.details.join('; ')})` : '';
      return `GitHub rejected ${what} (422${said}${details})`;
    }
    default:
      return context.status === 0 ? `could not reach GitHub for ${what}${said}` : `GitHub answered ${context.status} to ${what}${said}`;
  }
}
