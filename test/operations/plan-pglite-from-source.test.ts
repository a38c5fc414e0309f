/**
 * plan against embedded PGlite reads the database on a worker thread only when running compiled
 * JavaScript; run from the TypeScript sources (as here) it must read on the main thread.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/operations/plan.js';

describe('plan on PGlite from the sources', () => {
  it('plans the example schedules against a fresh embedded database', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'cronform-plan-src-'));
    try {
      cpSync('schedules', path.join(cwd, 'schedules'), { recursive: true });
      // An empty environment: no DATABASE_URL (CI sets one), so the embedded database is chosen.
      const plan = await planChanges({ dir: 'schedules', cwd, nowMs: Date.parse('2026-11-29T12:00:00Z'), database: { cwd, env: {} } });
      expect(plan.changes.length).toBeGreaterThan(0);
      expect(plan.changes.every((change) => change.action === 'create')).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
