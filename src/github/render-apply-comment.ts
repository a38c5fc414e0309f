/**
 * The comment `cronform-apply.yml` leaves on the merged pull request: did apply succeed, for which
 * commit, by whom, with the output of `cronform apply` (the tail, when it is long). Pure.
 */
import { ExitCodes } from '../shared/exit-codes.js';
import { fencedBlock } from '../plan/markdown-code.js';
import { escapeMarkdown } from '../plan/render-markdown-table.js';
import { APPLY_COMMENT_MARKER } from './sticky-comment.js';

export interface ApplyOutcome {
  exitCode: number;
  /** What `cronform apply` printed. */
  log: string;
  commit: string | null;
  actor: string | null;
  runUrl: string | null;
}

/** Leaves room for the heading, the fences and GitHub's 65,536-character limit. */
const MAX_LOG_CHARS = 60_000;

const OUTCOMES: Record<number, string> = {
  [ExitCodes.SUCCESS]: '✅ applied',
  [ExitCodes.ERROR]: '❌ failed',
  [ExitCodes.STALE_PLAN]: '❌ refused: the database moved since the plan (stale or already-applied plan)',
  [ExitCodes.LOCK_TIMEOUT]: '❌ failed: another apply held the lock past --lock-timeout',
};

export function renderApplyComment(outcome: ApplyOutcome): string {
  const headline = OUTCOMES[outcome.exitCode] ?? `❌ failed (exit ${outcome.exitCode})`;
  const facts = [
    outcome.commit ? `commit \`${escapeMarkdown(outcome.commit.slice(0, 12))}\`` : null,
    outcome.actor ? `by @${escapeMarkdown(outcome.actor)}` : null,
    outcome.runUrl ? `[workflow run](${outcome.runUrl})` : null,
  ].filter(Boolean);
  const log = outcome.log.trimEnd();
  const shown = log.length > MAX_LOG_CHARS ? `… (first ${log.length - MAX_LOG_CHARS} characters cut; the full log is in the workflow run)\n${log.slice(-MAX_LOG_CHARS)}` : log;
  return [
    APPLY_COMMENT_MARKER,
    `## cronform apply: ${headline}`,
    '',
    facts.length > 0 ? facts.join(' · ') : '',
    '',
    '<details><summary>Output of cronform apply</summary>',
    '',
    // A fence longer than any backtick run in the log cannot be closed by the log.
    fencedBlock('text', [shown || '(no output)']),
    '',
    '</details>',
    '',
  ].join('\n');
}
