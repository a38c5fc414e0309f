/**
 * `cronform dev`'s watch and what it prints (src/operations/dev-session.ts): real files changed the
 * way editors change them — a temp file renamed over the manifest (vim, JetBrains, `sed -i`), twice
 * in a row, a new file, a deletion, a broken save — each followed by its "applied vN" or error line.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { DevSession } from '../../src/operations/dev-session.js';
import { ManualClock } from '../../src/shared/clock.js';
import { createJsonLogger } from '../../src/shared/logger.js';
import { scheduleManifest } from '../support/apply-manifests.js';
import { createPgliteDatabase } from '../support/databases.js';

const NOW_MS = Date.parse('2026-03-02T10:00:00Z');
let project: string;
let database: Database;
let session: DevSession;
const lines: string[] = [];

/** What an editor does on save: write a temp file beside it, rename it over the manifest. */
function saveAtomically(file: string, text: string) {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.swp`);
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** Waits for `line` among the printed lines after position `from`; returns the position after it. */
async function printed(line: string | RegExp, from: number): Promise<number> {
  await expect.poll(() => lines.slice(from).some((l) => (typeof line === 'string' ? l === line : line.test(l))), { timeout: 15_000 }).toBe(true);
  return lines.length;
}

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'cf-dev-'));
  mkdirSync(path.join(project, 'schedules'));
  writeFileSync(path.join(project, 'schedules', 'a.yaml'), scheduleManifest('a', { cron: '0 11 * * *' }));
  database = await createPgliteDatabase();
  session = new DevSession(database, {
    dir: 'schedules',
    cwd: project,
    clock: new ManualClock(NOW_MS),
    concurrency: 1,
    baseDir: project,
    env: {},
    logger: createJsonLogger({ write: () => undefined }),
    print: (line) => lines.push(line),
    settleMs: 50,
  });
  await session.start();
}, 60_000);

afterAll(async () => {
  await session?.stop();
  await database?.close();
  rmSync(project, { recursive: true, force: true });
});

it('says what it did at start, with the next runs', () => {
  expect(lines.map((line) => line.replace(/\(\d+\.\d s\)/, '(…)'))).toEqual([
    'applying schedules/ …',
    'applied v1 a: created',
    'applied: policy changed',
    'next runs:',
    '  a  2026-03-02 11:00Z  in 1h',
    'applying schedules/: 1 change (…)',
    'starting the runner …',
    'starting the runner: done (…)',
    'watching schedules/ — Ctrl-C to stop',
  ]);
});

it('follows atomic saves, new files, deletions and broken saves', async () => {
  const a = path.join(project, 'schedules', 'a.yaml');
  let from = lines.length;
  saveAtomically(a, scheduleManifest('a', { cron: '30 11 * * *' }));
  from = await printed('applied v2 a: updated (cron)', from);
  // The watch still follows the name after its file was replaced.
  saveAtomically(a, scheduleManifest('a', { cron: '45 11 * * *' }));
  from = await printed('applied v3 a: updated (cron)', from);
  from = await printed('  a  2026-03-02 11:45Z  in 1h 45m', from - 3);

  writeFileSync(path.join(project, 'schedules', 'b.yml'), scheduleManifest('b', { cron: '0 12 * * *' }));
  from = await printed('applied v1 b: created', from);

  unlinkSync(path.join(project, 'schedules', 'b.yml'));
  from = await printed(/^applied v\d+ b: archived$/, from);

  saveAtomically(a, scheduleManifest('a', { cron: 'not a cron' }));
  from = await printed(/^not applied: schedules\/a\.yaml:\d+:\d+: .*\[CF\d+\]$/, from);
  await printed('not applied: 1 error; the database is unchanged. Fix and save to try again.', from - 1);
}, 90_000);
