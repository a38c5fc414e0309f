/**
 * The verdict "successful jobs run again although their runner lived", apart from the others so
 * that it can be tested without a build (test/bench/chaos-reruns.test.ts): it reads only the
 * jobs' own log and the attempt rows.
 */

/** How long before its stop a job may write its END line and still be stopped alive (it must then exit). */
export const END_LINE_SLACK_MS = 500;

/**
 * Runs whose job succeeded (an `END … 0` line) and then executed again. Excused:
 * - the runner of the first success was SIGKILLed while the attempt was open (guarantee 8: the
 *   outcome may not have been written);
 * - the runner stopped the job at a deadline the job had reached: its timeout (TIMED_OUT), the end
 *   of a SIGTERM drain (CANCELLED, `runner shut down`) or its lease fence (STALLED, `lease could
 *   not be renewed` logged). A job that writes its END line
 *   and is signalled before it exits did not succeed as far as its runner can know, so it is
 *   retried per policy. Evidence that it was still alive when stopped: for TIMED_OUT/CANCELLED, no exit
 *   code (the process died of the runner's signal, the kernel's word); otherwise an END line at
 *   most END_LINE_SLACK_MS before that deadline. A TIMED_OUT attempt with exit code 0 and an
 *   earlier END line is a job that ended on its own and was misjudged: a double execution.
 * Everything else counts: an outcome lost while its runner lived, a job run again although it
 * ended on its own.
 */
export function successfulJobsRunAgain(jobLog, attempts, timeoutMsOf, killedBy, fencedAttempts) {
  const attemptByKey = new Map(attempts.map((a) => [`${a.runId}:${a.attempt}`, a]));
  const successes = groupBy(
    jobLog.ends.filter((e) => e.code === 0),
    (e) => e.runId,
  );
  const startsByRun = groupBy(jobLog.starts, (s) => s.runId);
  let afterKill = 0;
  const stoppedAtDeadline = [];
  const unexcused = [];
  for (const [runId, list] of successes) {
    const first = [...list].sort((a, b) => a.attempt - b.attempt)[0];
    const ranAgain = (startsByRun.get(runId) ?? []).some((s) => s.attempt > first.attempt) || list.length > 1;
    if (!ranAgain) continue;
    const attempt = attemptByKey.get(`${runId}:${first.attempt}`);
    const label = `run ${runId} attempt ${first.attempt} (${attempt?.status ?? 'no attempt row'})`;
    if (attempt && killedBy(attempt) === 'SIGKILL') {
      afterKill += 1;
      continue;
    }
    let deadlineMs = null;
    if (attempt?.status === 'TIMED_OUT') {
      const timeoutMs = timeoutMsOf(attempt);
      if (timeoutMs !== undefined && timeoutMs !== null) deadlineMs = attempt.startedMs + timeoutMs;
    } else if (attempt?.status === 'STALLED' && fencedAttempts.has(`${runId}:${first.attempt}`)) {
      deadlineMs = fencedAttempts.get(`${runId}:${first.attempt}`);
    }
    // Released at the end of a SIGTERM drain: stopped at the drain's deadline.
    if (attempt?.status === 'CANCELLED' && attempt.error?.startsWith('runner shut down')) deadlineMs = attempt.finishedMs;
    const killed = (attempt?.status === 'TIMED_OUT' || attempt?.status === 'CANCELLED') && attempt.exitCode === null;
    if (deadlineMs !== null && (killed || (first.atMs !== null && first.atMs >= deadlineMs - END_LINE_SLACK_MS))) {
      stoppedAtDeadline.push(`${label} END ${first.atMs === null ? '?' : first.atMs - deadlineMs} ms from its stop${killed ? ', killed by its signal' : ''}`);
      continue;
    }
    unexcused.push(deadlineMs !== null && first.atMs !== null ? `${label}: ended ${deadlineMs - first.atMs} ms before its stop${attempt.exitCode === null || attempt.exitCode === undefined ? '' : `, exit code ${attempt.exitCode}`}` : label);
  }
  return { afterKill, stoppedAtDeadline, unexcused };
}

/** Items in lists by key, in their order (also used by verdicts.js). */
export function groupBy(items, keyOf) {
  const groups = new Map();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
