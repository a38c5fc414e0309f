/**
 * The verdicts of the chaos suite, computed from the database (and the jobs' own log) after the
 * runners have stopped. Expected slots come from the time engine (`dist/time/slots.js`), never
 * from the runner's own bookkeeping: each schedule version owes the slots of its definition from
 * the moment it took over (see `expectedSlots`).
 */
import { readFileSync } from 'node:fs';
import { calendarForDefinition } from '../../dist/time/timing-cache.js';
import { nextSlot, slotsBetween } from '../../dist/time/slots.js';
import { jitterFor } from '../../dist/runner/policy/jitter.js';
import { DEFAULT_SLOT_LOOKAHEAD_MS } from '../../dist/runner/runner.js';
import { everyAttempt } from '../../dist/db/open-attempts.js';
import { PgDialect } from 'drizzle-orm/pg-core';
import { groupBy, successfulJobsRunAgain } from './reruns.js';

const ms = (value) => (value === null || value === undefined ? null : value instanceof Date ? value.getTime() : Date.parse(value));

/**
 * Every attempt: the rows of run_attempts, and the running attempts that have none yet (an attempt
 * gets its row when it ends; its run row records it until then). The product's own relation
 * (src/db/open-attempts.ts, everyAttempt), as SQL text: it has no parameters.
 */
const ATTEMPTS = new PgDialect().sqlToQuery(everyAttempt()).sql;

export async function loadFacts(client) {
  const versions = (
    await client.query(`select v.schedule_id, s.name, v.version, v.definition, v.created_at from schedule_versions v join schedules s on s.id = v.schedule_id order by v.schedule_id, v.version`)
  ).rows.map((r) => ({ scheduleId: Number(r.schedule_id), name: r.name, version: r.version, definition: r.definition, createdMs: ms(r.created_at) }));
  const runs = (
    await client.query(`select id, schedule_id, schedule_version, scheduled_for, trigger_type, status, status_reason, run_after, attempts, max_attempts,
        lease_owner, lease_expires_at, created_at, started_at, finished_at, summarized_slots, queue, priority from schedule_runs`)
  ).rows.map((r) => ({
    id: Number(r.id),
    scheduleId: Number(r.schedule_id),
    version: r.schedule_version,
    slotMs: ms(r.scheduled_for),
    trigger: r.trigger_type,
    status: r.status,
    reason: r.status_reason,
    runAfterMs: ms(r.run_after),
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    leaseExpiresMs: ms(r.lease_expires_at),
    createdMs: ms(r.created_at),
    summarized: r.summarized_slots,
    queue: r.queue,
    priority: r.priority,
  }));
  const attempts = (await client.query(`select run_id, attempt, runner_id, status, started_at, finished_at, error, exit_code from ${ATTEMPTS} a`)).rows.map((r) => ({
    runId: Number(r.run_id),
    attempt: r.attempt,
    runnerId: r.runner_id,
    status: r.status,
    startedMs: ms(r.started_at),
    finishedMs: ms(r.finished_at),
    error: r.error,
    exitCode: r.exit_code,
  }));
  const runners = (await client.query(`select id, pid, started_at from runners`)).rows.map((r) => ({ id: r.id, pid: r.pid, startedMs: ms(r.started_at) }));
  const [sqlCounts] = (
    await client.query(`select
        (select count(*)::int from (select 1 from schedule_runs group by schedule_id, scheduled_for, trigger_type having count(*) > 1) d) as duplicate_slots,
        (select count(*)::int from (select 1 from schedule_runs group by idempotency_key having count(*) > 1) d) as duplicate_keys,
        (select count(*)::int from ${ATTEMPTS} a join ${ATTEMPTS} b on a.run_id = b.run_id and a.attempt < b.attempt
           and b.started_at < coalesce(a.finished_at, 'infinity') and a.started_at < coalesce(b.finished_at, 'infinity')) as overlapping_attempts,
        (select count(*)::int from (select run_id from ${ATTEMPTS} a where status = 'SUCCEEDED' group by run_id having count(*) > 1) d) as runs_succeeded_twice`)
  ).rows;
  const overlapping = (
    await client.query(`select a.run_id, a.attempt as a, a.status as a_status, a.error as a_error, a.runner_id as a_runner, b.runner_id as b_runner,
          round(extract(epoch from (a.finished_at - b.started_at)) * 1000) as overlap_ms
        from ${ATTEMPTS} a join ${ATTEMPTS} b on a.run_id = b.run_id and a.attempt < b.attempt
          and b.started_at < coalesce(a.finished_at, 'infinity') and a.started_at < coalesce(b.finished_at, 'infinity')
        limit 3`)
  ).rows;
  sqlCounts.overlapping_examples = overlapping.map((o) => `run ${o.run_id} attempt ${o.a} ${o.a_status} (${o.a_error ?? ''}) ends ${o.overlap_ms ?? '∞'} ms after the next starts`);
  return { versions, runs, attempts, runners, sqlCounts };
}

/** START/END/OVERLAP lines written by job.sh. */
export function readJobLog(file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { starts: [], ends: [], overlapRun: [], overlapSchedule: [] };
  }
  const log = { starts: [], ends: [], overlapRun: [], overlapSchedule: [] };
  for (const line of text.split('\n')) {
    const [kind, runId, attempt, third, fourth] = line.split(' ');
    if (kind === 'START') log.starts.push({ runId: Number(runId), attempt: Number(attempt), version: Number(third.slice(1)), schedule: fourth });
    else if (kind === 'END') log.ends.push({ runId: Number(runId), attempt: Number(attempt), code: Number(third), atMs: fourth === undefined ? null : Number(fourth) });
    else if (kind === 'OVERLAP_RUN') log.overlapRun.push({ runId: Number(runId), attempt: Number(attempt), schedule: third });
    else if (kind === 'OVERLAP_SCHEDULE') log.overlapSchedule.push({ runId: Number(runId), attempt: Number(attempt), schedule: third });
  }
  return log;
}

/**
 * The slots a schedule owes in (firstApplyMs, windowEndMs], with the version that owes each.
 * Version 1 owes its slots after its apply. A later version v takes over at
 * B = min(apply of v + 1 ms, first slot of v-1 not yet turned into a run): apply keeps the slots
 * the scheduler had not processed owed (from next_run_at), so a slot is never dropped by a change.
 * Runners turn slots into runs up to DEFAULT_SLOT_LOOKAHEAD_MS ahead, so v-1 also keeps the slots
 * it turned into runs in that span after v's apply (and no later one).
 */
export function expectedSlots(versions, runsOfSchedule, windowEndMs) {
  const owed = new Map();
  let lowerExclusiveMs = versions[0].createdMs;
  for (let index = 0; index < versions.length; index += 1) {
    const version = versions[index];
    const calendar = calendarForDefinition(version.definition);
    let upperExclusiveMs = windowEndMs + 1;
    const next = versions[index + 1];
    if (next) {
      const own = runsOfSchedule.filter((r) => r.version === version.version).flatMap((r) => coveredSlots(r, calendar));
      const lastMs = own.length > 0 ? Math.max(...own) : lowerExclusiveMs;
      const firstUnprocessedMs = nextSlot(calendar, lastMs) ?? Number.POSITIVE_INFINITY;
      const createdAheadMs = Math.min(lastMs, next.createdMs + DEFAULT_SLOT_LOOKAHEAD_MS);
      upperExclusiveMs = Math.min(Math.max(Math.min(next.createdMs + 1, firstUnprocessedMs), createdAheadMs + 1), windowEndMs + 1);
    }
    for (const slot of slotsBetween(calendar, lowerExclusiveMs + 1, upperExclusiveMs)) owed.set(slot, version.version);
    lowerExclusiveMs = upperExclusiveMs - 1;
    if (lowerExclusiveMs >= windowEndMs) break;
  }
  return owed;
}

/** The slots a run row stands for: itself, or the slots a summary row counts. */
function coveredSlots(run, calendar) {
  if (!run.summarized) return [run.slotMs];
  const slots = [run.slotMs];
  for (let after = run.slotMs; slots.length < run.summarized; ) {
    after = nextSlot(calendar, after);
    slots.push(after);
  }
  return slots;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const within = (atMs, windows) => windows.some(([from, to]) => atMs >= from && atMs < to);
const RAN_OUT = new Set(['MISFIRE', 'GRACE_EXCEEDED', 'CATCH_UP_CAP']);
const ACTIVE = new Set(['QUEUED', 'RUNNING', 'RETRY_PENDING']);

/**
 * Every verdict: { name, value, expected, pass, detail }. `context` carries what only the
 * orchestrator knows (windows, processes, settings).
 */
export function computeVerdicts(facts, jobLog, context) {
  const { versions, runs, attempts, runners, sqlCounts } = facts;
  const verdicts = [];
  const add = (name, value, expected, pass, detail = '') => verdicts.push({ name, value, expected, pass, detail });
  const versionsBySchedule = groupBy(versions, (v) => v.scheduleId);
  const definitionOf = (scheduleId, version) => versionsBySchedule.get(scheduleId)?.find((v) => v.version === version)?.definition;
  const runsById = new Map(runs.map((r) => [r.id, r]));
  const attemptsByRun = groupBy(attempts, (a) => a.runId);
  const scheduled = runs.filter((r) => r.trigger === 'SCHEDULED');
  const scheduledBySchedule = groupBy(scheduled, (r) => r.scheduleId);

  // 1. Duplicates.
  add('duplicate runs per (schedule, slot, trigger)', sqlCounts.duplicate_slots, 0, sqlCounts.duplicate_slots === 0, `idempotency keys used twice: ${sqlCounts.duplicate_keys}`);
  const startsByAttempt = groupBy(jobLog.starts, (s) => `${s.runId}:${s.attempt}`);
  const executedTwice = [...startsByAttempt.values()].filter((list) => list.length > 1).length;
  add('attempts executed more than once (job log)', executedTwice, 0, executedTwice === 0, `runs with two SUCCEEDED attempts: ${sqlCounts.runs_succeeded_twice}`);

  // 2. Every due slot has exactly one run.
  let owedTotal = 0;
  let missing = 0;
  let doubled = 0;
  let unexpected = 0;
  let wrongVersion = 0;
  let unexplained = 0;
  const statusCounts = {};
  const examples = [];
  for (const [scheduleId, list] of versionsBySchedule) {
    const own = scheduledBySchedule.get(scheduleId) ?? [];
    const owed = expectedSlots(list, own, context.windowEndMs);
    owedTotal += owed.size;
    const seen = new Map();
    for (const run of own) {
      const calendar = calendarForDefinition(definitionOf(scheduleId, run.version));
      for (const slot of coveredSlots(run, calendar)) {
        if (slot <= list[0].createdMs || slot > context.windowEndMs) continue;
        seen.set(slot, [...(seen.get(slot) ?? []), run]);
      }
    }
    for (const [slot, version] of owed) {
      const found = seen.get(slot) ?? [];
      if (found.length === 0) {
        missing += 1;
        if (examples.length < 5) examples.push(`missing ${list[0].name} ${new Date(slot).toISOString()}`);
        continue;
      }
      if (found.length > 1) doubled += 1;
      const run = found[0];
      if (run.version !== version) {
        wrongVersion += 1;
        if (examples.length < 5) examples.push(`${list[0].name} ${new Date(slot).toISOString()} v${run.version}, owed by v${version}`);
      }
      const key = run.reason && (run.status === 'SKIPPED' || run.status === 'MISSED') ? `${run.status}/${run.reason}` : run.status;
      statusCounts[key] = (statusCounts[key] ?? 0) + 1;
      if ((run.status === 'SKIPPED' || run.status === 'MISSED') && !run.reason) unexplained += 1;
    }
    for (const [slot] of seen) {
      if (!owed.has(slot)) {
        unexpected += 1;
        if (examples.length < 5) examples.push(`unexpected ${list[0].name} ${new Date(slot).toISOString()}`);
      }
    }
  }
  const covered = owedTotal - missing - doubled - wrongVersion - unexplained;
  const coveragePct = owedTotal === 0 ? 0 : (100 * covered) / owedTotal;
  add(
    'due slots with exactly one run or an explained SKIPPED/MISSED record',
    `${coveragePct.toFixed(3)}% (${covered}/${owedTotal})`,
    '100%',
    owedTotal > 0 && covered === owedTotal && unexpected === 0,
    `missing ${missing}, doubled ${doubled}, off-calendar ${unexpected}, wrong version ${wrongVersion}, unexplained ${unexplained}; ${Object.entries(statusCounts)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}${examples.length ? `; e.g. ${examples.join('; ')}` : ''}`,
  );

  // 3. Expired leases.
  const outside = context.leaseSamples.filter((s) => !within(s.atMs, context.excusedWindows));
  const worstMs = Math.max(0, ...outside.map((s) => s.expiredMs));
  // An expired lease waits out its owner's kill grace and the stop margin (the job may still be
  // dying), then at most a reconcile interval.
  const limitMs = context.reconcileIntervalMs + (context.stallGraceMs ?? 0) + context.leaseSampleSlackMs;
  add(
    'RUNNING runs with an expired lease older than the reconcile interval',
    `${context.expiredAtEnd} at the end; oldest seen ${(worstMs / 1000).toFixed(1)} s`,
    `0; <= ${(limitMs / 1000).toFixed(0)} s`,
    context.expiredAtEnd === 0 && worstMs <= limitMs,
    `${outside.length} samples outside the outage${context.excusedWindows.length ? `; during the outage and its recovery: oldest ${(Math.max(0, ...context.leaseSamples.filter((s) => within(s.atMs, context.excusedWindows)).map((s) => s.expiredMs)) / 1000).toFixed(1)} s` : ''}`,
  );

  const longest = new Map();
  for (const t of context.longTransactions.filter((t) => !within(t.atMs, context.excusedWindows))) {
    if ((longest.get(t.pid)?.openMs ?? 0) < t.openMs) longest.set(t.pid, t);
  }
  add(
    'database transactions open longer than 5 s',
    longest.size,
    0,
    longest.size === 0,
    [...longest.values()].slice(0, 3).map((t) => `${(t.openMs / 1000).toFixed(0)} s ${t.state}: ${t.query.slice(0, 160)}`).join('; '),
  );

  // 4. Overlapping attempts.
  add(
    'overlapping attempts of one run (run_attempts, job processes)',
    `${sqlCounts.overlapping_attempts} in the database; ${jobLog.overlapRun.length} live processes`,
    '0; 0',
    sqlCounts.overlapping_attempts === 0 && jobLog.overlapRun.length === 0,
    [...sqlCounts.overlapping_examples, ...jobLog.overlapRun.slice(0, 3).map((o) => `process of run ${o.runId} attempt ${o.attempt} (${o.schedule})`)].join('; '),
  );
  add(
    'concurrent executions of one SKIP_NEW/QUEUE_NEW schedule (job processes)',
    jobLog.overlapSchedule.length,
    0,
    jobLog.overlapSchedule.length === 0,
    jobLog.overlapSchedule.slice(0, 3).map((o) => `run ${o.runId} attempt ${o.attempt} (${o.schedule})`).join('; '),
  );

  // 5. Attempts of killed runners, recovered per onStall.
  const processByRunner = new Map(runners.map((runner) => [runner.id, matchProcess(runner, context.processes)]));
  let stalled = 0;
  let stalledOk = 0;
  let killedRunning = 0;
  let killedAttempts = 0;
  const stallExamples = [];
  const stalledBy = { SIGKILL: 0, SIGTERM: 0, alive: 0 };
  /** The signal the suite sent to the attempt's runner while the attempt was open, if any. */
  const killedBy = (attempt) => {
    const process = processByRunner.get(attempt.runnerId);
    if (!process || process.final || process.signalledMs === null) return null;
    const open = attempt.startedMs <= process.signalledMs && (attempt.finishedMs === null || attempt.finishedMs >= process.signalledMs);
    return open ? process.signal : null;
  };
  for (const attempt of attempts) {
    const killed = killedBy(attempt) === 'SIGKILL';
    if (killed) killedAttempts += 1;
    if (attempt.status === 'RUNNING' && (killed || context.allStopped)) killedRunning += 1;
    if (attempt.status !== 'STALLED') continue;
    stalled += 1;
    stalledBy[killedBy(attempt) ?? 'alive'] += 1;
    const run = runsById.get(attempt.runId);
    const definition = definitionOf(run.scheduleId, run.version);
    const later = (attemptsByRun.get(run.id) ?? []).filter((a) => a.attempt > attempt.attempt);
    let ok;
    if (definition.onStall === 'retry' && attempt.attempt < run.maxAttempts) ok = later.length > 0 || run.status === 'RETRY_PENDING';
    else if (definition.onStall === 'retry') ok = later.length === 0 && run.status === 'FAILED';
    else if (definition.onStall === 'fail') ok = later.length === 0 && run.status === 'FAILED' && run.reason === 'STALLED';
    else ok = later.length === 0 && run.status === 'MANUAL_REQUIRED';
    if (ok) stalledOk += 1;
    else if (stallExamples.length < 3) stallExamples.push(`run ${run.id} attempt ${attempt.attempt} onStall ${definition.onStall}: run ${run.status}, ${later.length} later attempts`);
  }
  add(
    'attempts of killed runners recovered per onStall',
    `${stalledOk}/${stalled} stalled attempts; ${killedRunning} left RUNNING`,
    `${stalled}/${stalled}; 0`,
    stalledOk === stalled && killedRunning === 0 && (context.requireStalls ? stalledBy.SIGKILL > 0 : true),
    `attempts open when their runner got SIGKILL ${killedAttempts}; stalled after SIGKILL ${stalledBy.SIGKILL}, after SIGTERM ${stalledBy.SIGTERM}, runner alive (cut off by the outage) ${stalledBy.alive}${stallExamples.length ? `; ${stallExamples.join('; ')}` : ''}`,
  );
  // A job that succeeded and ran again.
  const rerun = successfulJobsRunAgain(jobLog, attempts, (attempt) => {
    const run = runsById.get(attempt.runId);
    return definitionOf(run.scheduleId, run.version)?.timeoutMs;
  }, killedBy, context.fencedAttempts ?? new Map());
  add(
    'successful jobs run again although their runner lived',
    rerun.unexcused.length,
    0,
    rerun.unexcused.length === 0,
    `run again after a SIGKILL before the outcome was written: ${rerun.afterKill}; job stopped by its runner at a deadline it reached (timeout, lease fence) after writing its END line: ${rerun.stoppedAtDeadline.length}${rerun.stoppedAtDeadline.length ? ` (e.g. ${rerun.stoppedAtDeadline.slice(0, 3).join('; ')})` : ''}${rerun.unexcused.length ? `; ${rerun.unexcused.slice(0, 3).join('; ')}` : ''}`,
  );
  const released = attempts.filter((a) => a.status === 'CANCELLED' && a.error?.startsWith('runner shut down'));
  const resumed = released.filter((a) => (attemptsByRun.get(a.runId) ?? []).some((b) => b.attempt > a.attempt) || ACTIVE.has(runsById.get(a.runId).status));
  add('attempts released by a SIGTERM drain taken over', `${resumed.length}/${released.length}`, `${released.length}/${released.length}`, resumed.length === released.length);

  // 6. Nothing stuck: runnable runs get claimed, running ones end, PENDING ones move.
  const stuck = context.stuckRuns;
  add('runs stuck at the end (runnable but unclaimed, running past timeout, PENDING behind nothing)', stuck.length, 0, stuck.length === 0, stuck.slice(0, 3).join('; '));

  // 7. Late slots handled per misfire policy.
  const misfire = checkMisfires(scheduled, definitionOf, context.misfireThresholdMs);
  add(
    'late slots handled per misfire policy',
    `${misfire.violations} violations in ${misfire.lateSlots} late slots`,
    '0',
    misfire.violations === 0 && (context.requireMisfires ? misfire.lateSlots > 0 : true),
    `${Object.entries(misfire.byPolicy).map(([k, n]) => `${k} ${n}`).join(', ')}${misfire.examples.length ? `; ${misfire.examples.join('; ')}` : ''}`,
  );

  // 8. Start delay while no runner is dying.
  const delays = { calm: [], chaos: [] };
  const calmStarts = [];
  for (const run of runs) {
    const definition = definitionOf(run.scheduleId, run.version);
    if (run.trigger !== 'SCHEDULED' || definition.overlap === 'QUEUE_NEW') continue;
    const first = (attemptsByRun.get(run.id) ?? []).find((a) => a.attempt === 1);
    if (!first) continue;
    // run_after moves on a retry: the first start is measured from the slot plus its jitter.
    const calendar = calendarForDefinition(definition);
    const dueMs = run.slotMs + jitterFor(definition.name, run.slotMs, definition.jitterMs, nextSlot(calendar, run.slotMs) ?? null);
    const delayMs = first.startedMs - dueMs;
    if (within(dueMs, context.calmWindows)) {
      delays.calm.push(delayMs);
      // For the post-mortem of a slow start: when the run row appeared and who started it.
      calmStarts.push({ delayMs, text: `run ${run.id} ${definition.name} due ${new Date(dueMs).toISOString().slice(11, 23)}: row +${run.createdMs - dueMs} ms, started +${delayMs} ms by ${first.runnerId}` });
    } else if (within(dueMs, context.chaosWindows)) delays.chaos.push(delayMs);
  }
  for (const list of Object.values(delays)) list.sort((a, b) => a - b);
  const slowest = calmStarts.sort((a, b) => b.delayMs - a.delayMs).slice(0, 3).map((s) => s.text);
  const p99 = percentile(delays.calm, 99);
  add(
    'start delay p99 while no runner is dying',
    p99 === null ? 'no runs' : `${p99} ms (p50 ${percentile(delays.calm, 50)} ms, max ${delays.calm.at(-1)} ms, n=${delays.calm.length})`,
    `<= ${context.maxStartP99Ms} ms`,
    p99 !== null && p99 <= context.maxStartP99Ms,
    [delays.chaos.length ? `under chaos: p50 ${percentile(delays.chaos, 50)} ms, p99 ${percentile(delays.chaos, 99)} ms, max ${delays.chaos.at(-1)} ms, n=${delays.chaos.length}` : '', slowest.length ? `slowest calm starts: ${slowest.join('; ')}` : '']
      .filter(Boolean)
      .join('; '),
  );

  // 9. Apply under fire.
  if (context.applyUnderFire) {
    const { changedNames, applyMs } = context.applyUnderFire;
    const changedIds = new Set(versions.filter((v) => changedNames.includes(v.name)).map((v) => v.scheduleId));
    const switched = [...changedIds].filter((id) => (versionsBySchedule.get(id) ?? []).length >= 2);
    const versionByRun = new Map(runs.map((r) => [r.id, r.version]));
    const mismatches = jobLog.starts.filter((s) => versionByRun.has(s.runId) && versionByRun.get(s.runId) !== s.version);
    const inFlight = runs.filter((r) => changedIds.has(r.scheduleId) && r.version === 1 && (attemptsByRun.get(r.id) ?? []).some((a) => a.startedMs < applyMs && (a.finishedMs === null || a.finishedMs > applyMs)));
    const newRuns = runs.filter((r) => changedIds.has(r.scheduleId) && r.version >= 2);
    const newStarted = newRuns.filter((r) => jobLog.starts.some((s) => s.runId === r.id && s.version === r.version));
    add(
      'apply under fire: new version from the next slot, runs in flight keep theirs',
      `${switched.length}/${changedIds.size} switched; ${inFlight.length} v1 runs in flight at apply; ${mismatches.length} version mismatches`,
      `all switched; >= 1 in flight; 0 mismatches`,
      switched.length === changedIds.size && changedIds.size > 0 && inFlight.length > 0 && mismatches.length === 0 && newStarted.length > 0,
      `${newRuns.length} runs of the new versions, ${newStarted.length} executed the new job; slots owed per version are checked above`,
    );
  }

  // 10. Runner processes.
  const unexpected2 = context.unexpectedExits;
  add(
    'runner processes: unexpected exits, unhandled errors on stderr',
    `${unexpected2.length} exits; ${context.stderrNoise.length} non-log lines`,
    '0; 0',
    unexpected2.length === 0 && context.stderrNoise.length === 0,
    [
      ...unexpected2.map((p) => `seat ${p.seat} pid ${p.pid} exited ${p.code ?? p.exitSignal}${p.signal ? ` after ${p.signal}` : ''}`),
      ...context.stderrNoise.slice(0, 3),
      ...(context.killedStarting?.length ? [`SIGTERMed while Node was starting (nothing logged, no handler yet): ${context.killedStarting.length}`] : []),
    ].join('; '),
  );
  add(
    'runner loop errors outside the outage',
    context.loopErrorsOutside.length,
    0,
    context.loopErrorsOutside.length === 0,
    context.loopErrorsOutside.slice(0, 3).join('; '),
  );
  if (context.outage) {
    const { window, reconnectMs, survivors } = context.outage;
    add(
      `database outage (${((window.upMs - window.downMs) / 1000).toFixed(1)} s): runners survive and reconnect`,
      `${survivors.survived}/${survivors.before} survived; all reconnected ${reconnectMs === null ? 'never' : `${(reconnectMs / 1000).toFixed(1)} s after restart`}`,
      `${survivors.before}/${survivors.before}; <= ${(context.maxReconnectMs / 1000).toFixed(1)} s`,
      survivors.survived === survivors.before && reconnectMs !== null && reconnectMs <= context.maxReconnectMs,
      `loop errors logged during the outage: ${context.loopErrorsDuring}`,
    );
  }
  return verdicts;
}

/**
 * Late slots (turned into a run more than the misfire threshold after the slot) against the
 * policy, written independently of the runner's planner: one scheduler tick's rows of a schedule
 * share their created_at, so each tick is checked as a whole (RUN_ONCE runs only the latest).
 */
function checkMisfires(scheduled, definitionOf, thresholdMs) {
  const byTick = groupBy(
    scheduled.filter((r) => !r.summarized),
    (r) => `${r.scheduleId}:${r.createdMs}`,
  );
  let lateSlots = 0;
  let violations = 0;
  const byPolicy = {};
  const examples = [];
  const ran = (run) => !((run.status === 'SKIPPED' || run.status === 'MISSED') && RAN_OUT.has(run.reason)) && !(run.status === 'MANUAL_REQUIRED' && run.attempts === 0);
  for (const tick of byTick.values()) {
    tick.sort((a, b) => a.slotMs - b.slotMs);
    const definition = definitionOf(tick[0].scheduleId, tick[0].version);
    const late = (run) => run.createdMs - run.slotMs;
    const inGrace = tick.filter((r) => late(r) <= definition.gracePeriodMs);
    const missed = inGrace.filter((r) => late(r) > thresholdMs);
    const onTime = inGrace.filter((r) => late(r) <= thresholdMs);
    if (missed.length === 0 && inGrace.length === tick.length) continue;
    const runFrom = definition.misfire === 'RUN_ONCE' ? (onTime.length === 0 ? missed.length - 1 : missed.length) : definition.misfire === 'CATCH_UP_ALL' ? Math.max(0, missed.length - definition.maxCatchUp) : missed.length;
    const check = (run, ok, what) => {
      if (ok) return;
      violations += 1;
      if (examples.length < 3) examples.push(`run ${run.id} (${definition.name} ${new Date(run.slotMs).toISOString()}, ${late(run)} ms late, ${definition.misfire}): ${run.status}/${run.reason ?? '-'}, expected ${what}`);
    };
    for (const run of tick) {
      if (late(run) > definition.gracePeriodMs) {
        lateSlots += 1;
        byPolicy['GRACE_EXCEEDED'] = (byPolicy['GRACE_EXCEEDED'] ?? 0) + 1;
        check(run, run.status === 'SKIPPED' && run.reason === 'GRACE_EXCEEDED', 'SKIPPED/GRACE_EXCEEDED');
      }
    }
    missed.forEach((run, position) => {
      lateSlots += 1;
      byPolicy[definition.misfire] = (byPolicy[definition.misfire] ?? 0) + 1;
      if (definition.misfire === 'SKIP') check(run, run.status === 'SKIPPED' && run.reason === 'MISFIRE', 'SKIPPED/MISFIRE');
      else if (definition.misfire === 'MANUAL') check(run, run.status === 'MANUAL_REQUIRED' && run.attempts === 0, 'MANUAL_REQUIRED');
      else if (position >= runFrom) check(run, ran(run), 'a run');
      else check(run, run.status === 'SKIPPED' && run.reason === (definition.misfire === 'CATCH_UP_ALL' ? 'CATCH_UP_CAP' : 'MISFIRE'), 'skipped as missed');
    });
    for (const run of onTime) check(run, ran(run), 'a run (on time)');
  }
  return { lateSlots, violations, byPolicy, examples };
}

/** The process that ran a runner: same pid, the latest one started before the runner registered. */
function matchProcess(runner, processes) {
  return processes.filter((p) => p.pid === runner.pid && p.startedMs <= runner.startedMs + 1000).sort((a, b) => b.startedMs - a.startedMs)[0];
}

