/**
 * Use case: keep exactly one cronform comment of a kind on a pull request (the plan, or the apply
 * outcome), found by the hidden marker its body starts with.
 *
 * Two runs can race (two pushes in quick succession, a re-run next to the original): both list,
 * both find nothing, both create. GitHub offers no conditional create, so after creating, a run
 * lists again and converges: the oldest marked comment (lowest id) survives, every newer one is
 * deleted (a 404 means the other run deleted it first), and a run whose own comment was deleted
 * writes its body into the survivor. Whichever run creates second sees the first comment when it
 * lists again, so the pair always ends with one comment.
 *
 * Only comments written by the token's own account count, whatever marker they carry: anyone who
 * can comment on the pull request can post a body that starts with the marker, and adopting it
 * would let a pull request's author keep a forged plan in place of the real one (and have the real
 * one deleted as a "duplicate"). The account is found once there is a marked comment to judge:
 * `GET /user` names it for a personal token; a GitHub App installation token (the Actions
 * GITHUB_TOKEN) is refused there, and its comments are written by the app's bot account,
 * `github-actions[bot]` unless the caller names another (`botLogin`). A `[bot]` login cannot be
 * taken by a person. The comment cronform creates is the final word: its author replaces the
 * guess, so a wrong `botLogin` costs one extra comment (deleted again) and never adopts another's.
 *
 * Editing a comment does not notify anyone, so when the plan's risk rises above what the comment
 * said before, a short new comment says so; a plan that no longer changes anything turns an
 * existing comment into "no changes" and creates none.
 */
import { GitHubClient, type IssueComment, type PullRequestRef } from '../github/github-client.js';
import { composeRiskNotice, rankRisk, readRiskMarker, startsWithMarker, type CommentRisk } from '../github/sticky-comment.js';

export interface StickyCommentRequest {
  issueNumber: number;
  marker: string;
  body: string;
  /** The risk the body reports (plan comments), compared with the one the comment said before. */
  risk: CommentRisk | null;
  /** False: only update an existing comment (a plan without changes does not start a thread). */
  createIfMissing: boolean;
  /** Login of the comments an installation token writes (default `github-actions[bot]`); must end with `[bot]`. */
  botLogin?: string | undefined;
}

export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

export type StickyAction = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface StickyCommentResult {
  action: StickyAction;
  comment: { id: number; url: string } | null;
  previousRisk: CommentRisk | null;
  riskNotice: { id: number; url: string } | null;
  duplicatesDeleted: number;
}

export async function upsertStickyComment(client: GitHubClient, request: StickyCommentRequest): Promise<StickyCommentResult> {
  const marked = findMarked(await client.listIssueComments(request.issueNumber), request.marker);
  // Nothing marked at all: no need to ask who we are before creating (the new comment will say).
  const ownLogin = marked.length === 0 ? null : await findOwnLogin(client, request.botLogin);
  const existing = ownLogin === null ? [] : authoredBy(marked, ownLogin);
  if (existing.length === 0) return createSticky(client, request, ownLogin);

  const [target, ...duplicates] = existing as [IssueComment, ...IssueComment[]];
  let duplicatesDeleted = 0;
  for (const duplicate of duplicates) if (await client.deleteIssueComment(duplicate.id)) duplicatesDeleted += 1;
  const previousRisk = readRiskMarker(target.body);
  const unchanged = target.body === request.body;
  const comment = unchanged ? target : await client.updateIssueComment(target.id, request.body);
  const url = comment.html_url || target.html_url;
  let riskNotice: StickyCommentResult['riskNotice'] = null;
  if (previousRisk !== null && request.risk !== null && rankRisk(request.risk) > rankRisk(previousRisk)) {
    const notice = await client.createIssueComment(request.issueNumber, composeRiskNotice(previousRisk, request.risk, url));
    riskNotice = { id: notice.id, url: notice.html_url };
  }
  return { action: unchanged ? 'unchanged' : 'updated', comment: { id: target.id, url }, previousRisk, riskNotice, duplicatesDeleted };
}

async function createSticky(client: GitHubClient, request: StickyCommentRequest, guessedLogin: string | null): Promise<StickyCommentResult> {
  const none = { previousRisk: null, riskNotice: null };
  if (!request.createIfMissing) return { action: 'skipped', comment: null, duplicatesDeleted: 0, ...none };
  const created = await client.createIssueComment(request.issueNumber, request.body);
  // Who wrote the comment we just created is who we are, whatever GET /user or the guess said.
  const ownLogin = created.user?.login ?? guessedLogin ?? (await findOwnLogin(client, request.botLogin));
  const marked = authoredBy(findMarked(await client.listIssueComments(request.issueNumber), request.marker), ownLogin);
  // Eventual consistency aside, our comment is in the list; if it is not, it is the only one we know.
  const survivor = marked[0] ?? created;
  let duplicatesDeleted = 0;
  for (const comment of marked.slice(1)) if (await client.deleteIssueComment(comment.id)) duplicatesDeleted += 1;
  if (survivor.id === created.id) return { action: 'created', comment: { id: created.id, url: created.html_url }, duplicatesDeleted, ...none };
  const updated = await client.updateIssueComment(survivor.id, request.body);
  return { action: 'updated', comment: { id: survivor.id, url: updated.html_url || survivor.html_url }, duplicatesDeleted, ...none };
}

/** The login the token writes comments as: its user for a personal token, else the app's bot. */
async function findOwnLogin(client: GitHubClient, botLogin: string | undefined): Promise<string> {
  const user = await client.getAuthenticatedUser();
  if (user) return user.login;
  // An installation token writes as a bot; a person's login here would hand that person the comment.
  if (botLogin !== undefined && !isBotLogin(botLogin)) throw new Error(`the bot login must end with [bot] (got ${JSON.stringify(botLogin)})`);
  return botLogin ?? ACTIONS_BOT_LOGIN;
}

/** `[` and `]` are not allowed in a person's login: only a GitHub App's account ends with `[bot]`. */
export function isBotLogin(login: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9-]*\[bot\]$/.test(login);
}

/** Comments whose body starts with the marker, oldest (lowest id) first. */
function findMarked(comments: readonly IssueComment[], marker: string): IssueComment[] {
  return comments.filter((comment) => startsWithMarker(comment.body, marker)).sort((a, b) => a.id - b.id);
}

/** Logins are unique regardless of case, and a `--bot-login` may be typed in any case. */
function authoredBy(comments: readonly IssueComment[], login: string): IssueComment[] {
  const wanted = login.toLowerCase();
  return comments.filter((comment) => comment.user?.login.toLowerCase() === wanted);
}

/**
 * The pull request a push to main came from: the merged one whose merge commit is `sha`, else any
 * merged one containing it. Null for a direct push.
 */
export async function findMergedPullRequest(client: GitHubClient, sha: string): Promise<PullRequestRef | null> {
  const pulls = await client.listPullRequestsForCommit(sha);
  return pulls.find((pull) => pull.merge_commit_sha === sha && pull.merged_at) ?? pulls.find((pull) => pull.merged_at) ?? null;
}
