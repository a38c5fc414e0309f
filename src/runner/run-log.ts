/**
 * The log lines about runs: one per state change this runner writes (created, claimed, started,
 * finished, retry scheduled, cancelled, handed back, stalled). Every line is written by a child
 * logger bound to the run's id, schedule, slot and attempt, so none can lack them. Created QUEUED
 * and claimed are debug lines; the rest are info (warn when something went wrong).
 */
import { describeQueueTarget } from '../compile/queue-job.js';
import type { ClaimedRun } from '../db/worker-queries.js';
import type { Logger } from '../shared/logger.js';
import { identityOf, type RunIdentity, type RunObserver } from './run-observer.js';

export function createRunLog(logger: Logger): RunObserver {
  const of = (run: RunIdentity): Logger => logger.child({ runId: run.runId, schedule: run.schedule, scheduledFor: run.scheduledFor, attempt: run.attempt });
  const ofClaimed = (run: ClaimedRun): Logger => of(identityOf(run));
  return {
    runsCreated(runs) {
      for (const run of runs) {
        const fields = { status: run.status, trigger: run.trigger, ...(run.reason ? { reason: run.reason } : {}), ...(run.slots > 1 ? { slots: run.slots } : {}) };
        // A run created QUEUED is the ordinary case, and its start follows within the jitter: at
        // debug, so that at info a run that just runs writes two lines (started, finished).
        if (run.status === 'QUEUED') of(run).debug(`run created ${run.status}`, fields);
        else of(run).info(`run created ${run.status}`, fields);
      }
    },
    runsClaimed(runs) {
      for (const run of runs) ofClaimed(run).debug('run claimed', { status: 'RUNNING', trigger: run.triggerType, queue: run.queue });
    },
    attemptStarted(run, startedMs) {
      ofClaimed(run).info('attempt started', { status: 'RUNNING', trigger: run.triggerType, queue: run.queue, startDelayMs: startedMs - run.scheduledFor.getTime() });
    },
    attemptFinished(run, outcome, runStatus, durationMs) {
      const fields = { attemptStatus: outcome.status, durationMs, exitCode: outcome.exitCode ?? undefined, httpStatus: outcome.httpStatus ?? undefined, error: outcome.error ?? undefined };
      const line = ofClaimed(run);
      if (runStatus === null) line.warn('attempt finished; outcome not recorded: the run was cancelled or taken over meanwhile', fields);
      // The error is the point here ("set NOTION_TOKEN to enable this job"), so it leads the line.
      else if (outcome.skipReason && runStatus === 'SKIPPED') line.warn(`job not run; run SKIPPED: ${outcome.error ?? outcome.skipReason}`, { status: runStatus, reason: outcome.skipReason });
      else if (runStatus === 'SUCCESS') line.info('attempt finished; run SUCCESS', { ...fields, status: runStatus });
      else line.warn(`attempt finished; run ${runStatus}`, { ...fields, status: runStatus });
    },
    runHandedOff(run, job, externalJobId) {
      ofClaimed(run).info(`run handed off to ${describeQueueTarget(job)}`, { status: 'RUNNING', system: job.system, externalJobId: externalJobId ?? undefined });
    },
    runCancelled(run) {
      ofClaimed(run).warn('run cancelled by an operator; stopping its job', { status: 'CANCELLED' });
    },
    leaseExpiring(run) {
      ofClaimed(run).warn('lease could not be renewed: job stopped before it expires');
    },
    runsReleased(runs, reason) {
      for (const run of runs) ofClaimed(run).info('run handed back to the queue', { status: 'QUEUED', reason });
    },
    leasesExpired(attempts) {
      for (const attempt of attempts) {
        const message = attempt.started ? `lease expired: attempt stalled; run ${attempt.runStatus}` : 'lease expired before the job started: run handed back to the queue';
        of(attempt).warn(message, { status: attempt.runStatus, leaseOwner: attempt.leaseOwner ?? undefined });
      }
    },
  };
}
