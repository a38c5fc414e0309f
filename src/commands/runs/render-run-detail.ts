/**
 * `runs show` as text. Everything a job, a server or an operator wrote (errors, output tails,
 * runner ids, audit reasons) is made visible before it reaches the terminal: a job's output must
 * not move the cursor, clear the screen or forge the lines around it. `logs` is the raw view.
 */
import type { AttemptDetail, HandOffSummary, RunDetail } from '../../operations/runs/show-run.js';
import { formatElapsed } from '../../shared/format-elapsed.js';
import { makeVisible } from '../../shared/visible-text.js';

const TAIL_INDENT = '    ';

function renderTail(label: string, tail: string | null): string[] {
  if (tail === null || tail === '') return [`  ${label}: (empty)`];
  const lines = tail.endsWith('\n') ? tail.slice(0, -1).split('\n') : tail.split('\n');
  return [`  ${label} (last bytes kept):`, ...lines.map((line) => `${TAIL_INDENT}${makeVisible(line)}`)];
}

function renderHandOff(handOff: HandOffSummary): string[] {
  const report = handOff.reportedFinishAt
    ? `finished reported ${handOff.reportedFinishAt}`
    : handOff.lastHeartbeatAt
      ? `last report ${handOff.lastHeartbeatAt}`
      : 'no report from the worker yet';
  return [
    `  handed off to ${makeVisible(handOff.target)} at ${handOff.handedOffAt}: job ${makeVisible(handOff.externalJobId ?? '(no id)')}, key ${makeVisible(handOff.jobKey)}`,
    `  ${report}; deadline ${handOff.deadlineAt}`,
  ];
}

function renderAttempt(attempt: AttemptDetail): string[] {
  const ended = attempt.finishedAt ? ` → ${attempt.finishedAt} (${formatElapsed(attempt.durationMs)})` : ' (not finished)';
  const lines = [`Attempt ${attempt.attempt}  ${attempt.status}  on ${makeVisible(attempt.runnerId)}  ${attempt.startedAt}${ended}`];
  const result = [attempt.exitCode === null ? null : `exit code ${attempt.exitCode}`, attempt.httpStatus === null ? null : `HTTP ${attempt.httpStatus}`].filter((part) => part !== null);
  if (result.length > 0) lines.push(`  ${result.join(', ')}`);
  if (attempt.handOff) lines.push(...renderHandOff(attempt.handOff));
  if (attempt.error) lines.push(`  error: ${makeVisible(attempt.error)}`);
  lines.push(...renderTail('stdout', attempt.stdoutTail), ...renderTail('stderr', attempt.stderrTail));
  return lines;
}

export function renderRunDetail(run: RunDetail): string[] {
  const reason = run.statusReason ? `: ${makeVisible(run.statusReason)}` : '';
  const field = (name: string, value: string) => `  ${name.padEnd(12)}${value}`;
  const lines = [
    `Run ${run.id} of ${makeVisible(run.schedule)}  ${run.status}${reason}`,
    field('slot', `${run.scheduledFor} (${run.trigger}${run.businessDate ? `, business date ${run.businessDate}` : ''})`),
    ...(run.summarizedSlots ? [field('stands for', `${run.summarizedSlots} slots of an outage`)] : []),
    field('definition', `version ${run.scheduleVersion}`),
    field('queue', `${makeVisible(run.queue)}, priority ${run.priority}`),
    field('attempts', `${run.attempts} of ${run.maxAttempts}`),
    field('created', run.createdAt),
    field('run after', run.runAfter),
    field('started', run.startedAt ?? '-'),
    field('finished', run.finishedAt ? `${run.finishedAt} (${formatElapsed(run.durationMs)} after the start)` : '-'),
    ...(run.leaseOwner ? [field('lease', `${makeVisible(run.leaseOwner)} until ${run.leaseExpiresAt ?? '-'}`)] : []),
    field('key', makeVisible(run.idempotencyKey)),
  ];
  for (const attempt of run.attemptDetails) lines.push('', ...renderAttempt(attempt));
  if (run.events.length > 0) {
    lines.push('', 'Operations');
    for (const event of run.events) lines.push(`  ${event.at}  ${event.action} by ${makeVisible(event.actor)}${event.reason ? `: ${makeVisible(event.reason)}` : ''}`);
  }
  return lines;
}
