/**
 * `runs show` as text. Everything a job, a server or an operator wrote (errors, output tails,
 * runner ids, audit reasons) is made visible before it reaches the terminal: a job's output must
 * not move the cursor, clear the screen or forge the lines around it. `logs` is the raw view.
 */
import type { AttemptDetail, HandOffSummary, RunDetail, RunProgressDetail, StepDetail } from '../../operations/runs/show-run.js';
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
    ...(handOff.delivery && !handOff.delivery.delivered
      ? [`  delivery to the database in $${makeVisible(handOff.delivery.urlFromEnv)} pending after ${handOff.delivery.tries} tr${handOff.delivery.tries === 1 ? 'y' : 'ies'}${handOff.delivery.lastError ? `: ${makeVisible(handOff.delivery.lastError)}` : ''} (delivered again with the same key)`]
      : []),
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

const formatCount = (value: number): string => value.toLocaleString('en-US');

/** Counts, what the job would affect, and the first items (failed first): all of it the job's own words, made visible. */
function renderProgress(progress: RunProgressDetail): string[] {
  const total = progress.total === null ? '' : ` of ${formatCount(progress.total)}`;
  const lines = [`Progress  ${formatCount(progress.done)}${total} done, ${formatCount(progress.failed)} failed  (reported ${progress.updatedAt})`];
  if (progress.wouldAffect !== null) lines.push(`  would affect ${formatCount(progress.wouldAffect)}${progress.approvedAffected === null ? '' : ` (approved up to ${formatCount(progress.approvedAffected)})`}`);
  if (progress.itemsTruncated) lines.push('  more items were reported than a run keeps one by one: they are counted, not listed');
  const shown = progress.items.length;
  if (shown > 0) lines.push(`  items (${shown} shown, failed first):`);
  for (const item of progress.items) {
    lines.push(`    ${item.status.padEnd(7)}${makeVisible(item.key)}  attempt ${item.attempt}${item.error ? `: ${makeVisible(item.error)}` : ''}`);
  }
  return lines;
}

/**
 * A workflow's steps under the attempt that ran them: status, timings, exit code, error and
 * result; the output tails of a step that did not succeed (the others: `logs RUN --step NAME`).
 */
function renderSteps(steps: StepDetail[]): string[] {
  const lines: string[] = [];
  for (const step of steps) {
    const timing = step.startedAt === null ? '' : step.finishedAt ? `  ${step.startedAt} → ${step.finishedAt} (${formatElapsed(step.durationMs)})` : `  ${step.startedAt} (not finished)`;
    const tries = step.tries > 1 ? `  try ${step.tries}` : '';
    lines.push(`  step ${step.index + 1} ${makeVisible(step.name)}  ${step.status}${tries}${timing}`);
    const result = [step.exitCode === null ? null : `exit code ${step.exitCode}`, step.httpStatus === null ? null : `HTTP ${step.httpStatus}`].filter((part) => part !== null);
    if (result.length > 0) lines.push(`    ${result.join(', ')}`);
    if (step.error) lines.push(`    error: ${makeVisible(step.error)}`);
    if (step.result) lines.push(`    result: ${makeVisible(JSON.stringify(step.result))}`);
    if (step.status !== 'SUCCEEDED' && step.status !== 'RESET') lines.push(...[...renderTail('stdout', step.stdoutTail), ...renderTail('stderr', step.stderrTail)].map((line) => `  ${line}`));
  }
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
    ...(run.upstreamRunId !== null ? [field('after', `run ${run.upstreamRunId} (its SUCCESS created this run)`)] : []),
    // A join: every upstream run it waited for, the one above included.
    ...(Object.keys(run.upstreamRunIds ?? {}).length > 1 ? Object.entries(run.upstreamRunIds ?? {}).map(([schedule, runId]) => field('upstream', `run ${runId} of ${makeVisible(schedule)}`)) : []),
    ...run.downstreamRuns.map((d) => field('created', `run ${d.runId} of ${makeVisible(d.schedule)} (${d.status})`)),
    ...Object.entries(run.inputs ?? {}).map(([name, value]) => field('input', `${makeVisible(name)} = ${makeVisible(value)}`)),
  ];
  if (run.progress) lines.push('', ...renderProgress(run.progress));
  for (const attempt of run.attemptDetails) {
    lines.push('', ...renderAttempt(attempt));
    const steps = run.steps.filter((step) => step.attempt === attempt.attempt);
    if (steps.length > 0) lines.push('  steps:', ...renderSteps(steps));
  }
  // RESET rows of an attempt not started yet (`retry --from-step`).
  const pending = run.steps.filter((step) => !run.attemptDetails.some((attempt) => attempt.attempt === step.attempt));
  if (pending.length > 0) lines.push('', `Attempt ${pending[0]!.attempt} (queued)`, '  steps:', ...renderSteps(pending));
  if (run.events.length > 0) {
    lines.push('', 'Operations');
    for (const event of run.events) lines.push(`  ${event.at}  ${event.action} by ${makeVisible(event.actor)}${event.reason ? `: ${makeVisible(event.reason)}` : ''}`);
  }
  return lines;
}
