/**
 * Property 4, shared by PGlite and PostgreSQL: SQL in names is refused by the schema; SQL in labels,
 * description, owner, payload, env values, command arguments, http headers and body is stored and
 * read back verbatim (or refused with a located diagnostic when PostgreSQL cannot store a character),
 * never executed: every table still exists, with exactly the rows the applies wrote.
 */
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compileSources } from '../../src/compile/compile-sources.js';
import type { Definition } from '../../src/compile/definition.js';
import { queryRows, type Database } from '../../src/db/client.js';
import { auditLog, scheduleVersions, schedules } from '../../src/db/schema.js';
import { applyPlan } from '../../src/operations/apply.js';
import { planAgainstDatabase } from '../../src/operations/plan.js';
import { parsePlanJson, renderPlanJson } from '../../src/plan/render-json.js';
import { PLAN_COMMENT_MARKER, renderPlanMarkdown } from '../../src/plan/render-markdown.js';
import { renderPlanText } from '../../src/plan/render-text.js';
import { ManualClock } from '../../src/shared/clock.js';
import { countRows, dumpDatabase } from '../operations/database-dump.js';
import { hostileString } from './injection-strings.js';
import { errorsOf, expectLocated } from './located-diagnostics.js';
import { HOSTILE_NOW_MS, runOptions } from './run-options.js';

export interface OpenedDatabase {
  database: Database;
  cleanup(): Promise<void>;
}

interface FreeText {
  description: string;
  owner: string;
  labelKey: string;
  labelValue: string;
  payloadKey: string;
  payloadValue: string;
  envValue: string;
  argument: string;
  headerValue: string;
  body: string;
  http: boolean;
}

const freeText: fc.Arbitrary<FreeText> = fc.record({
  description: hostileString,
  owner: hostileString,
  labelKey: hostileString,
  labelValue: hostileString,
  payloadKey: hostileString,
  payloadValue: hostileString,
  envValue: hostileString,
  argument: hostileString,
  headerValue: hostileString,
  body: hostileString,
  http: fc.boolean(),
});

/** Characters PostgreSQL cannot store (CF013), keys that could alter objects (CF008), literal secrets (CF040). */
const REFUSAL_CODES = ['CF008', 'CF013', 'CF040'];

function manifestFor(name: string, t: FreeText) {
  const job = t.http
    ? { type: 'http', url: `https://hooks.example.com/x?q=${Buffer.from(t.argument).toString('hex')}`, method: 'POST', headers: { 'X-Injected': t.headerValue }, body: { [t.payloadKey]: t.body, raw: t.body } }
    : { type: 'command', command: ['node', 'jobs/x.js', t.argument], env: { INJECTED: t.envValue } };
  return {
    apiVersion: 'cronform/v1',
    kind: 'Schedule',
    metadata: { name, description: t.description, owner: t.owner, labels: { [t.labelKey]: t.labelValue, team: t.labelValue } },
    spec: { cron: '0 3 * * *', timezone: 'UTC', job, payload: { [t.payloadKey]: t.payloadValue, nested: [t.payloadValue, { q: t.description }] } },
  };
}

async function listTables(database: Database): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(database.db, sql`select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'drizzle') order by 1`);
  return rows.map((row) => row.name);
}

export function defineSqlInjectionSuite(engine: string, open: () => Promise<OpenedDatabase>, numRuns: number): void {
  describe(`SQL injection through manifests (${engine})`, () => {
    it('refuses SQL in names: CF013 located at the name', () => {
      const text = stringify({ apiVersion: 'cronform/v1', kind: 'Schedule', metadata: { name: "'); drop table schedules;--", previousName: "x'; drop table schedules;--" }, spec: { cron: '0 3 * * *', timezone: 'UTC', queue: "'; delete from audit_log;--", job: { type: 'command', command: ['true'] } } });
      const result = compileSources([{ file: 'schedules/injection.yaml', text }], HOSTILE_NOW_MS);
      expect(result.schedules).toEqual([]);
      expect(result.diagnostics.map(({ code, line, column, path }) => ({ code, line, column, path }))).toEqual([
        { code: 'CF013', line: 4, column: 9, path: 'metadata.name' },
        { code: 'CF013', line: 5, column: 17, path: 'metadata.previousName' },
        { code: 'CF013', line: 9, column: 10, path: 'spec.queue' },
      ]);
    });

    it('stores free text verbatim, or refuses it located; never runs it', async () => {
      const { database, cleanup } = await open();
      try {
        const tablesBefore = await listTables(database);
        const accepted: Array<{ file: string; text: string }> = [];
        const expected = new Map<string, ReturnType<typeof manifestFor>>();
        let runIndex = 0;
        let refused = 0;
        await fc.assert(
          fc.asyncProperty(freeText, async (t) => {
            const name = `inj-${(runIndex += 1)}`;
            const manifest = manifestFor(name, t);
            const source = { file: `schedules/${name}.yaml`, text: stringify(manifest) };
            const desired = compileSources([...accepted, source], HOSTILE_NOW_MS);
            expectLocated(desired.diagnostics, [...accepted, source].map((s) => s.file));
            const errors = errorsOf(desired.diagnostics);
            if (errors.length > 0) {
              for (const error of errors) expect(error.file).toBe(source.file);
              expect(REFUSAL_CODES, JSON.stringify(errors)).toEqual(expect.arrayContaining(errors.map((e) => e.code)));
              refused += 1;
              return;
            }
            const plan = await planAgainstDatabase(database, desired, { nowMs: HOSTILE_NOW_MS });
            expect(plan.changes.map((c) => [c.action, c.name])).toEqual([['create', name]]);
            renderPlanText(plan, { color: false });
            const markdown = renderPlanMarkdown(plan);
            // Free text cannot forge the sticky-comment marker or open and close sections of the PR comment.
            expect(markdown.split(PLAN_COMMENT_MARKER)).toHaveLength(2);
            expect(markdown.split('<details').length).toBe(markdown.split('</details>').length);
            // Applied the way `plan --out plan.json` then `apply plan.json` does: through the JSON file.
            await applyPlan(database, parsePlanJson(renderPlanJson(plan)), { author: { actor: t.owner, reason: t.description, gitSha: null }, clock: new ManualClock(HOSTILE_NOW_MS), lockTimeoutMs: 5_000 });
            accepted.push(source);
            expected.set(name, manifest);

            const [row] = await database.db.select().from(schedules).where(eq(schedules.name, name));
            const [version] = await database.db.select().from(scheduleVersions).where(eq(scheduleVersions.name, name));
            const [audit] = await database.db.select().from(auditLog).where(eq(auditLog.scheduleName, name));
            for (const definition of [row!.definition, version!.definition, audit!.after as Definition]) {
              expect(definition.description).toBe(t.description);
              expect(definition.owner).toBe(t.owner);
              expect(definition.labels).toEqual(manifest.metadata.labels);
              expect(definition.payload).toEqual(manifest.spec.payload);
              if (definition.job.type === 'http') {
                expect(definition.job.headers).toEqual({ 'X-Injected': t.headerValue });
                expect(definition.job.body).toEqual({ [t.payloadKey]: t.body, raw: t.body });
              } else {
                expect(definition.job.type).toBe('command');
                if (definition.job.type !== 'command') continue;
                expect(definition.job.command).toEqual(['node', 'jobs/x.js', t.argument]);
                expect(definition.job.env).toEqual({ INJECTED: t.envValue });
              }
            }
            expect(audit!.actor).toBe(t.owner);
            expect(audit!.reason).toBe(t.description);
          }),
          runOptions(numRuns),
        );
        // Many inputs must have gone through (ten free-text fields each), or the property proved little.
        expect(accepted.length).toBeGreaterThan(numRuns / 3);
        expect(refused).toBeGreaterThan(0);
        expect(await listTables(database)).toEqual(tablesBefore);
        const counts = countRows(await dumpDatabase(database));
        // One audit row per created schedule, plus the default Policy recorded by the first apply.
        expect(counts).toMatchObject({ 'public.schedules': accepted.length, 'public.schedule_versions': accepted.length, 'public.audit_log': accepted.length + 1, 'public.schedule_runs': 0 });
        // What was stored reads back as what was compiled: planning again finds no change and no drift.
        const again = await planAgainstDatabase(database, compileSources(accepted, HOSTILE_NOW_MS), { nowMs: HOSTILE_NOW_MS });
        expect({ changes: again.changes.length, drift: again.drift, errors: again.errors, unchanged: again.unchanged }).toEqual({ changes: 0, drift: [], errors: [], unchanged: accepted.length });
      } finally {
        await cleanup();
      }
    }, 120_000);
  });
}
