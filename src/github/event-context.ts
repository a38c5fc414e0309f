/**
 * What a workflow run knows about its pull request, read from the event payload GitHub writes to
 * `GITHUB_EVENT_PATH` and from the standard environment variables. Pure: callers pass the text.
 */

export interface PullRequestEvent {
  number: number | null;
  labels: string[];
  headSha: string | null;
}

export function readPullRequestEvent(eventJson: string): PullRequestEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(eventJson);
  } catch {
    return { number: null, labels: [], headSha: null };
  }
  const record = asRecord(payload);
  // pull_request / pull_request_target events carry pull_request; issue_comment on a PR carries issue.
  const pullRequest = asRecord(record?.pull_request) ?? asRecord(record?.issue);
  const number = pullRequest?.number ?? record?.number;
  const labels = Array.isArray(pullRequest?.labels) ? pullRequest.labels.map((label) => asRecord(label)?.name).filter((name): name is string => typeof name === 'string') : [];
  const headSha = asRecord(pullRequest?.head)?.sha;
  return {
    number: typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : null,
    labels,
    headSha: typeof headSha === 'string' ? headSha : null,
  };
}

/** `https://github.com/owner/repo/actions/runs/123`, when the environment says enough. */
export function workflowRunUrl(env: NodeJS.ProcessEnv): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  return server && repository && runId ? `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${runId}` : null;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
