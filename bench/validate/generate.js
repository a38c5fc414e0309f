/**
 * Writes a repository of valid, varied manifests for the validate benchmark: Schedules spread over
 * team directories, a few files holding several documents, and one Policy declaring every queue used.
 * Deterministic: the same seed writes byte-identical files, so runs on different days compare.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRandom } from '../shared/seeded-random.js';

const TEAMS = ['platform', 'data', 'payments', 'sre', 'analytics', 'growth', 'billing', 'search', 'identity', 'mobile'];
const ZONES = ['UTC', 'Asia/Seoul', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Kolkata', 'America/Sao_Paulo', 'Europe/London', 'Asia/Tokyo'];
const QUEUES = ['default', 'reports', 'exports', 'sync', 'maintenance'];
const VERBS = ['sync', 'export', 'cleanup', 'aggregate', 'reconcile', 'refresh', 'notify', 'archive', 'rebuild', 'probe'];
const NOUNS = ['orders', 'invoices', 'users', 'metrics', 'events', 'sessions', 'ledger', 'catalog', 'search-index', 'webhooks'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** Cron, plus dayMatch when both day fields are restricted (validation requires it). */
function generateCron(random) {
  const minute = random.int(0, 59);
  const hour = random.int(0, 23);
  const roll = random.next();
  if (roll < 0.3) return { cron: `${minute} ${hour} * * *`, cadence: 'daily' };
  if (roll < 0.5) return { cron: `${minute} * * * *`, cadence: 'hourly' };
  if (roll < 0.65) return { cron: `*/${random.pick([5, 10, 15, 20, 30])} * * * *`, cadence: 'minutes' };
  if (roll < 0.78) return { cron: `${minute} ${hour} * * ${random.pick(DAY_NAMES)}`, cadence: 'weekly' };
  if (roll < 0.84) return { cron: `${minute} ${random.int(6, 18)} * * MON-FRI`, cadence: 'weekdays' };
  if (roll < 0.89) return { cron: `${minute} ${hour} ${random.int(1, 28)} * *`, cadence: 'monthly' };
  if (roll < 0.92) return { cron: random.pick(['@daily', '@hourly', '@weekly', '@monthly']), cadence: 'macro' };
  if (roll < 0.96) return { cron: `${random.int(0, 59)} ${minute} ${hour} * * *`, cadence: 'daily' };
  // "The first Monday of the month": both day fields restricted.
  return { cron: `${minute} ${hour} 1-7 * MON`, cadence: 'monthly', dayMatch: 'all' };
}

function generateJob(random, name, team, indent) {
  const pad = ' '.repeat(indent);
  const env = [`${pad}  MODE: ${random.pick(['full', 'incremental', 'dry-run'])}`];
  if (random.chance(0.7)) env.push(`${pad}  DATABASE_URL: { fromEnv: ${team.toUpperCase()}_DATABASE_URL }`);
  if (random.chance(0.4)) env.push(`${pad}  API_TOKEN: { fromEnv: ${team.toUpperCase()}_API_TOKEN }`);
  if (random.chance(0.3)) env.push(`${pad}  BATCH_SIZE: "${random.pick([100, 500, 1000, 5000])}"`);
  if (random.chance(0.75)) {
    const args = [`"node"`, `"jobs/${team}/${name}.js"`];
    if (random.chance(0.5)) args.push(`"--date"`, `"{{businessDate}}"`);
    if (random.chance(0.3)) args.push(`"--limit"`, `"${random.int(10, 10000)}"`);
    return [`${pad}type: command`, `${pad}command: [${args.join(', ')}]`, ...(random.chance(0.3) ? [`${pad}cwd: .`] : []), `${pad}env:`, ...env];
  }
  const lines = [`${pad}type: http`, `${pad}url: https://${team}.internal.example.com/hooks/${name}`, `${pad}method: ${random.pick(['GET', 'POST', 'PUT'])}`, `${pad}headers:`];
  lines.push(`${pad}  Accept: application/json`, `${pad}  Authorization: { fromEnv: ${team.toUpperCase()}_HOOK_AUTH }`);
  if (random.chance(0.5)) lines.push(`${pad}expectStatus: [${random.pick(['200, 204', '"200-299"', '202'])}]`);
  if (random.chance(0.3)) lines.push(`${pad}body: { source: cronform, schedule: ${name} }`);
  return lines;
}

function generateSchedule(random, index) {
  const team = random.pick(TEAMS);
  const name = `${team}-${random.pick(VERBS)}-${random.pick(NOUNS)}-${index}`;
  const { cron, cadence, dayMatch } = generateCron(random);
  const frequent = cadence === 'minutes' || cadence === 'hourly' || cron === '@hourly';
  const lines = ['apiVersion: cronform/v1', 'kind: Schedule', 'metadata:', `  name: ${name}`];
  lines.push(`  description: ${random.pick(VERBS)} ${random.pick(NOUNS)} for the ${team} team (${cadence})`);
  lines.push(`  owner: ${team}-team`);
  lines.push(random.chance(0.5) ? `  labels: { team: ${team}, tier: "${random.int(1, 3)}" }` : `  labels:\n    team: ${team}\n    cadence: ${cadence}`);
  lines.push('spec:', `  cron: "${cron}"`, `  timezone: ${random.pick(ZONES)}`);
  if (dayMatch) lines.push(`  dayMatch: ${dayMatch}`);
  if (random.chance(0.05)) lines.push('  enabled: false');
  lines.push('  job:', ...generateJob(random, name, team, 4));
  lines.push(`  timeout: ${frequent ? random.pick(['30s', '2m', '4m']) : random.pick(['5m', '20m', '1h'])}`);
  if (random.chance(0.15)) {
    lines.push('  # Every missed slot is replayed, one after another.', '  overlap: QUEUE_NEW', '  misfire: CATCH_UP_ALL', `  maxCatchUp: ${random.int(5, 48)}`);
  } else {
    lines.push(`  overlap: ${random.pick(['SKIP_NEW', 'QUEUE_NEW', 'ALLOW'])}`, `  misfire: ${random.pick(['SKIP', 'RUN_ONCE', 'MANUAL'])}`);
  }
  if (random.chance(0.6)) {
    lines.push(random.chance(0.5)
      ? `  retry: { maxAttempts: ${random.int(2, 5)}, backoff: exponential, initialDelay: 30s, maxDelay: 10m }`
      : `  retry:\n    maxAttempts: ${random.int(2, 4)}\n    backoff: fixed\n    initialDelay: ${random.pick(['10s', '1m'])}`);
  }
  if (random.chance(0.3)) lines.push(`  gracePeriod: ${random.pick(['10m', '2h', '1d'])}`);
  lines.push(`  priority: ${random.pick(['CRITICAL', 'HIGH', 'NORMAL', 'LOW'])}`, `  criticality: ${random.pick(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'])}`);
  if (random.chance(0.5)) lines.push(`  queue: ${random.pick(QUEUES)}`);
  if (!frequent && random.chance(0.4)) lines.push(`  dst: { gap: ${random.pick(['shift', 'skip'])}, fold: ${random.pick(['first', 'second', 'both'])} }`);
  if (!frequent && random.chance(0.3)) lines.push('  # The run reports on the previous business day.', '  businessDate: { offsetDays: -1 }');
  if (random.chance(0.25)) lines.push(`  payload: { project: ${team}, sections: [${random.pick(NOUNS)}, ${random.pick(NOUNS)}], limit: ${random.int(1, 500)} }`);
  return { team, text: lines.join('\n') };
}

const POLICY = `apiVersion: cronform/v1
kind: Policy
metadata:
  name: default
  description: Limits for every schedule of the benchmark repository
spec:
  minInterval: 1m
  maxRunsPerDay: 1440
  risk: { runsPerDayIncreaseHigh: 10 }
  misfireThreshold: 1m
  queues:
${QUEUES.map((queue) => `    ${queue}: { concurrency: ${queue === 'default' ? 5 : 2} }`).join('\n')}
  backfill: { concurrency: 2, priority: LOW }
`;

const HEADER = '# yaml-language-server: $schema=../../schema/cronform.schema.json\n';

/**
 * Writes `scheduleCount` Schedule documents under `directory` (teams/<team>/…yaml, about 1 file in
 * 20 holding 2–4 documents separated by `---`) and `policy.yaml`. Returns the counts written.
 */
export function generateManifests(directory, { scheduleCount = 10_000, seed = 20261129 } = {}) {
  const random = createRandom(seed);
  for (const team of TEAMS) mkdirSync(path.join(directory, 'teams', team), { recursive: true });
  writeFileSync(path.join(directory, 'policy.yaml'), HEADER + POLICY);
  let written = 0;
  let files = 1;
  let bytes = POLICY.length;
  while (written < scheduleCount) {
    const documents = random.chance(0.05) ? Math.min(random.int(2, 4), scheduleCount - written) : 1;
    const schedules = Array.from({ length: documents }, (_, i) => generateSchedule(random, written + i));
    const text = HEADER + schedules.map((s) => s.text).join('\n---\n') + '\n';
    const file = path.join(directory, 'teams', schedules[0].team, `${String(written).padStart(5, '0')}.yaml`);
    writeFileSync(file, text);
    written += documents;
    files += 1;
    bytes += text.length;
  }
  return { schedules: written, files, bytes };
}
