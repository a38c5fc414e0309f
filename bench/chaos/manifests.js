/**
 * The schedule mix of the chaos suite, generated from a seed: a few schedules with a seconds
 * field (every 1–5 s), the rest once a minute (some all on second 0, a herd) or every two minutes,
 * with every overlap, misfire and onStall policy, and jobs that succeed, fail, fail once, hang past
 * their timeout (one of them ignoring SIGTERM) and die midway (SIGKILL of themselves).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRandom } from '../shared/seeded-random.js';

export const JOB_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'job.sh');

const round1 = (value) => Math.round(value * 10) / 10;

function secondsSchedule(random, index) {
  const every = (index % 5) + 1;
  const kind = random.weighted([['ok', 6], ['fail', 1.5], ['crash', 1], ['hang', 1.5]]);
  // The default timeout is 90% of the interval; the job takes a fraction of it.
  const seconds = kind === 'hang' ? 0 : round1(Math.min(0.5, every * 0.3) * random.between(0.2, 1));
  return { cron: `*/${every} * * * * *`, kind, seconds, every };
}

function minuteSchedule(random) {
  const second = Math.floor(random.between(0, 60));
  const cron = random.weighted([[`${second} * * * * *`, 7], ['* * * * *', 2], [`${second} */2 * * * *`, 1]]);
  const kind = random.weighted([['ok', 4.5], ['slow', 1], ['long', 0.4], ['fail', 1], ['flaky', 1], ['hang', 1], ['stubborn', 0.5], ['crash', 1]]);
  const seconds = { slow: round1(random.between(3, 8)), long: round1(random.between(20, 40)), hang: 0, stubborn: 0 }[kind] ?? round1(random.between(0, 2.5));
  const spec = { cron, kind: kind === 'slow' || kind === 'long' ? 'ok' : kind, seconds };
  if (kind === 'hang' || kind === 'stubborn') spec.timeout = `${Math.floor(random.between(2, 5))}s`;
  // Longer than a lease, a drain and the outage: their runner is killed or cut off mid-job.
  if (kind === 'long') spec.timeout = '1m';
  return spec;
}

/** Busy when the schedules are changed under fire: jobs of 6–9 s, every 3 or 5 s, or every minute. */
function underFireSchedule(random, index) {
  const seconds = round1(random.between(6, 9));
  if (index % 2 === 0) return { cron: `${Math.floor(random.between(0, 60))} * * * * *`, kind: 'ok', seconds, timeout: '20s', underFire: true };
  const every = index % 4 === 1 ? 3 : 5;
  return { cron: `*/${every} * * * * *`, kind: 'ok', seconds, timeout: '20s', every, underFire: true };
}

/**
 * `count` schedules: `secondsShare` of them (at least 3) with a seconds field. Each entry keeps
 * what the verdicts need (kind, overlap) next to the manifest fields.
 */
export function generateSchedules({ count, seed, secondsShare = 0.08 }) {
  const random = createRandom(seed);
  const secondsCount = Math.max(3, Math.round(count * secondsShare));
  const underFireCount = Math.max(3, Math.round(count * 0.1));
  const schedules = [];
  for (let index = 0; index < count; index += 1) {
    const base =
      index < secondsCount ? secondsSchedule(random, index) : index < secondsCount + underFireCount ? underFireSchedule(random, index - secondsCount) : minuteSchedule(random);
    let overlap = random.pick(['ALLOW', 'SKIP_NEW', 'QUEUE_NEW']);
    let misfire = random.pick(['SKIP', 'RUN_ONCE', 'CATCH_UP_ALL', 'MANUAL']);
    // CF030: CATCH_UP_ALL cannot be combined with SKIP_NEW.
    if (misfire === 'CATCH_UP_ALL' && overlap === 'SKIP_NEW') misfire = 'RUN_ONCE';
    const maxAttempts = random.weighted([[1, 1], [2, 2], [3, 1]]);
    let onStall = random.weighted([['retry', 3], ['fail', 1], ['manual', 1]]);
    // The verdict on apply under fire wants the new job to run within the window. A QUEUE_NEW
    // schedule whose 6–9 s jobs come every 3 s has a backlog of old-version runs that only grows,
    // and a run left MANUAL_REQUIRED holds its queue: on some seeds every changed schedule was
    // held so, and nothing of the new version could run. One of them (every 3 s) therefore always
    // lets runs overlap and retries stalls; the draws above are kept so that every other schedule
    // of a seed stays as it was.
    if (index === secondsCount + 1) [overlap, misfire, onStall] = ['ALLOW', 'RUN_ONCE', 'retry'];
    schedules.push({
      name: `chaos-${String(index).padStart(3, '0')}`,
      ...base,
      overlap,
      misfire,
      maxCatchUp: misfire === 'CATCH_UP_ALL' ? 3 : undefined,
      onStall,
      retry: { maxAttempts, backoff: random.pick(['fixed', 'exponential']), initialDelay: '1s', maxDelay: '4s' },
      priority: random.weighted([['NORMAL', 6], ['HIGH', 2], ['LOW', 1], ['CRITICAL', 1]]),
      jitter: base.every === undefined && random.next() < 0.2 ? '3s' : undefined,
      version: 1,
    });
  }
  return schedules;
}

/**
 * The change applied under fire: a new job version for every chosen schedule; half of them also
 * move their slots (another seconds interval, or another second of the minute).
 */
export function changeSchedules(schedules, names) {
  return schedules.map((schedule, index) => {
    if (!names.has(schedule.name)) return schedule;
    const changed = { ...schedule, version: schedule.version + 1 };
    if (index % 2 === 0) {
      if (schedule.every !== undefined) {
        changed.every = schedule.every === 5 ? 4 : schedule.every + 1;
        changed.cron = `*/${changed.every} * * * * *`;
      } else if (/^\d+ /.test(schedule.cron)) {
        const [second, ...rest] = schedule.cron.split(' ');
        changed.cron = [(Number(second) + 30) % 60, ...rest].join(' ');
      }
    }
    return changed;
  });
}

export function policyManifest({ queueConcurrency, misfireThreshold }) {
  return [
    'apiVersion: cronform/v1',
    'kind: Policy',
    'metadata: { name: chaos }',
    'spec:',
    '  minInterval: 1s',
    '  maxRunsPerDay: 86400',
    `  misfireThreshold: ${misfireThreshold}`,
    `  queues: { default: { concurrency: ${queueConcurrency} } }`,
    '',
  ].join('\n');
}

export function scheduleManifest(schedule, workDir) {
  const exclusive = schedule.overlap === 'ALLOW' ? '0' : '1';
  const spec = {
    cron: schedule.cron,
    timezone: 'UTC',
    job: { type: 'command', command: ['/bin/sh', JOB_SCRIPT, schedule.kind, `v${schedule.version}`, String(schedule.seconds), exclusive, workDir] },
    overlap: schedule.overlap,
    misfire: schedule.misfire,
    maxCatchUp: schedule.maxCatchUp,
    onStall: schedule.onStall,
    retry: schedule.retry,
    priority: schedule.priority,
    timeout: schedule.timeout,
    jitter: schedule.jitter,
  };
  const lines = Object.entries(spec)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`);
  return `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${schedule.name}\n  owner: chaos\nspec:\n${lines.join('\n')}\n`;
}

/** One file per schedule, plus the Policy. */
export function writeManifests(dir, schedules, workDir, policy) {
  writeFileSync(path.join(dir, 'policy.yaml'), policyManifest(policy));
  for (const schedule of schedules) writeFileSync(path.join(dir, `${schedule.name}.yaml`), scheduleManifest(schedule, workDir));
}
