import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { compileSources } from '../../../src/compile/compile-sources.js';
import type { Database } from '../../../src/db/client.js';
import { listStoredSchedules } from '../../../src/db/schedule-queries.js';
import { loadManifestSources } from '../../../src/manifest/load.js';
import { planAgainstDatabase } from '../../../src/operations/plan.js';
import { exportSchedules } from '../../../src/operations/runs/export-schedules.js';
import { planHasChanges } from '../../../src/plan/plan-types.js';
import { applySources, databaseWith, NOW_MS, policySource, scheduleSource } from './run-fixtures.js';

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});
const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-export-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// The scratch directory stands for a repository that installed cronform: the modeline points there.
mkdirSync(path.join(scratch, 'node_modules', 'cronform', 'schema'), { recursive: true });
copyFileSync(new URL('../../../schema/cronform.schema.json', import.meta.url), path.join(scratch, 'node_modules', 'cronform', 'schema', 'cronform.schema.json'));
const MODELINE = '# yaml-language-server: $schema=../node_modules/cronform/schema/cronform.schema.json';

const sources = [
  scheduleSource(
    'daily-report',
    {
      cron: '30 19 * * *',
      timezone: 'Asia/Seoul',
      job: { type: 'command', command: ['node', 'jobs/daily-report.js', '--date', '{{businessDate}}'], cwd: 'jobs', env: { MODE: 'full', NOTION_TOKEN: { fromEnv: 'NOTION_TOKEN' } } },
      timeout: '20m',
      overlap: 'QUEUE_NEW',
      gracePeriod: '2h',
      freshness: '26h',
      retry: { maxAttempts: 3, initialDelay: '45s' },
      criticality: 'HIGH',
      queue: 'reports',
      businessDate: { offsetDays: -1 },
      payload: { project: 'platform', sections: ['incidents', 'deploys'], depth: 2 },
    },
    { description: 'Daily operations report', labels: { team: 'platform' } },
  ),
  scheduleSource(
    'api-health-check',
    {
      cron: '*/5 * * * *',
      job: { type: 'http', url: 'https://api.example.com/healthz', method: 'GET', headers: { Accept: 'application/json', 'X-Api-Key': { fromEnv: 'HEALTH_KEY' } }, expectStatus: [200, 204, '300-302'] },
      // Equal to the default for a 5-minute schedule (90% of it): omitted, and still the same digest.
      timeout: '270s',
      misfire: 'SKIP',
      priority: 'CRITICAL',
    },
    { owner: 'SRE Team' },
  ),
  scheduleSource('first-monday', { cron: '0 9 1-7 * MON', dayMatch: 'all', timezone: 'Europe/Berlin', jitter: '90s', dst: { gap: 'skip', fold: 'both' }, approval: 'required', misfire: 'MANUAL', onStall: 'manual' }, { owner: undefined }),
  scheduleSource('fast', { cron: '*/30 * * * * *', enabled: false, job: { type: 'http', url: 'https://hooks.example.com/ping', body: 'ping' } }),
  scheduleSource('old-job'),
  policySource({ minInterval: '10s', maxRunsPerDay: 5000, queues: { reports: { concurrency: 1 } }, backfill: { priority: 'HIGH' }, alerts: { targets: [{ name: 'oncall', type: 'webhook', url: 'https://alerts.example.com/cronform' }, { name: 'team', type: 'slack', url: { fromEnv: 'TEAM_SLACK_URL' } }] } }),
];

async function exportedDatabase(): Promise<Database> {
  const db = await databaseWith(sources);
  // Archive old-job: its manifest is gone.
  await applySources(db, sources.filter((s) => !s.file.includes('old-job')), NOW_MS, { allowMassArchive: true });
  return db;
}

describe('exportSchedules', () => {
  it('writes a dependent without a cron, with its spec.after and inputs, back to the same digest', async () => {
    // A join: both upstreams, in manifest order (not alphabetical), come back.
    database = await databaseWith([scheduleSource('extract'), scheduleSource('prices'), scheduleSource('load', { cron: undefined, after: [{ schedule: 'prices' }, { schedule: 'extract' }], inputs: { from: '{{businessDate - 7d}}' } })]);
    const outDir = path.join(scratch, 'dependent');
    await exportSchedules(database, { outDir, groupBy: 'none', force: false });
    const text = readFileSync(path.join(outDir, 'load.yaml'), 'utf8');
    expect(text).not.toMatch(/^\s*cron:/m);
    expect(text).toMatch(/^ {2}after:/m);
    const compiled = compileSources((await loadManifestSources([outDir], { cwd: scratch })).sources, NOW_MS);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const stored = new Map((await listStoredSchedules(database.db)).map((s) => [s.name, s.digest]));
    expect(compiled.schedules.find((s) => s.definition.name === 'load')?.digest).toBe(stored.get('load'));
    expect(compiled.schedules.find((s) => s.definition.name === 'load')?.definition.after?.map((a) => a.schedule)).toEqual(['prices', 'extract']);
  });

  it('writes manifests that compile back to the stored digests, so plan shows no change', async () => {
    database = await exportedDatabase();
    const outDir = path.join(scratch, 'per-schedule');
    const result = await exportSchedules(database, { outDir, groupBy: 'none', force: false });
    expect(result).toMatchObject({ policy: true, archivedLeftOut: 1 });
    expect(readdirSync(outDir).sort()).toEqual(['_policy.yaml', 'api-health-check.yaml', 'daily-report.yaml', 'fast.yaml', 'first-monday.yaml']);

    const loaded = await loadManifestSources([outDir], { cwd: scratch });
    const compiled = compileSources(loaded.sources, NOW_MS);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const stored = new Map((await listStoredSchedules(database.db)).map((s) => [s.name, s.digest]));
    expect(compiled.schedules.map((s) => [s.definition.name, s.digest])).toEqual(compiled.schedules.map((s) => [s.definition.name, stored.get(s.definition.name)]));
    expect(compiled.schedules).toHaveLength(4);
    const plan = await planAgainstDatabase(database, compiled, { nowMs: NOW_MS });
    expect(planHasChanges(plan)).toBe(false);

    expect(readFileSync(path.join(outDir, 'api-health-check.yaml'), 'utf8')).toMatchInlineSnapshot(`
      "# yaml-language-server: $schema=../node_modules/cronform/schema/cronform.schema.json
      apiVersion: cronform/v1
      kind: Schedule
      metadata:
        name: api-health-check
        owner: SRE Team
      spec:
        cron: "*/5 * * * *"
        timezone: UTC
        job:
          type: http
          url: https://api.example.com/healthz
          method: GET
          headers:
            Accept: application/json
            X-Api-Key:
              fromEnv: HEALTH_KEY
          expectStatus:
            - 200
            - 204
            - 300-302
        misfire: SKIP
        priority: CRITICAL
      "
    `);
  });

  it('groups by owner as multi-document files, and never overwrites without force', async () => {
    database = await exportedDatabase();
    const outDir = path.join(scratch, 'by-owner');
    const result = await exportSchedules(database, { outDir, groupBy: 'owner', force: false });
    expect(result.files).toEqual([
      { file: '_policy.yaml', schedules: [] },
      { file: 'platform-team.yaml', schedules: ['daily-report', 'fast'] },
      { file: 'sre-team.yaml', schedules: ['api-health-check'] },
      { file: 'unowned.yaml', schedules: ['first-monday'] },
    ]);
    const text = readFileSync(path.join(outDir, 'platform-team.yaml'), 'utf8');
    expect(text.startsWith(`${MODELINE}\napiVersion: cronform/v1\n`)).toBe(true);
    expect(text.split('\n---\n')).toHaveLength(2);
    const compiled = compileSources((await loadManifestSources([outDir], { cwd: scratch })).sources, NOW_MS);
    expect(planHasChanges(await planAgainstDatabase(database, compiled, { nowMs: NOW_MS }))).toBe(false);

    await expect(exportSchedules(database, { outDir, groupBy: 'owner', force: false })).rejects.toThrow('4 file(s) already exist');
    await expect(exportSchedules(database, { outDir, groupBy: 'owner', force: true })).resolves.toMatchObject({ policy: true });
  });
});
