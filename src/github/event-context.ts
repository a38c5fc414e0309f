/**
 * What a workflow run knows about its pull request, read from the event payload GitHub writes to
 * `GITHUB_EVENT_PATH` and from the standard environment variables. Pure: callers pass the text.
 */

export interface PullRequestEvent {
  /** `opened`, `synchronize` (a push to the head branch), `labeled`… */
  action: string | null;
  number: number | null;
  labels: string[];
  headSha: string | null;
}

export function readPullRequestEvent(eventJson: string): PullRequestEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(eventJson);
  } catch {
    return { action: null, number: null, labels: [], headSha: null };
  }
  const record = asRecord(payload);
  // pull_request / pull_request_target events carry pull_request; issue_comment on a PR carries issue.
  const pullRequest = asRecord(record?.pull_request) ?? asRecord(record?.issue);
  const number = pullRequest?.number ?? record?.number;
  const labels = Array.isArray(pullRequest?.labels) ? pullRequest.labels.map((label) => asRecord(label)?.name).filter((name): name is string => typeof name === 'string') : [];
  const headSha = asRecord(pullRequest?.head)?.sha;
  return {
    action: typeof record?.action === 'string' ? record.action : null,
    number: typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : null,
    labels,
    headSha: typeof headSha === 'string' ? headSha : null,
  };
}

/**
 * Whether the acceptance label accepts the risk of the head commit this run plans. A label is
 * added by a person for the commit they reviewed, and it stays on the pull request when new commits
 * are pushed: on a `synchronize` run (started by such a push) any label on the pull request was
 * there before the commit, so it accepts nothing, and the plan workflow removes it (re-adding it
 * accepts the new head). Commit dates cannot tell instead: the pusher writes them.
 */
export function labelAcceptsHead(event: PullRequestEvent, label: string): boolean {
  return event.action !== 'synchronize' && event.labels.includes(label);
}

/** `https://github.com/owner/repo/actions/runs/123`, when the environment says enough. */
export function workflowRunUrl(env: NodeJS.ProcessEnv): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  return server && repository && runId ? `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${runId}` : null;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
