/**
 * `migrations/` must be exactly what drizzle-kit generates from `src/db/schema.ts`: a schema edit
 * without `npm run db:generate` fails here (and so in CI).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(path.join(repoRoot, '.cronform'), { recursive: true });
// Inside the (git-ignored) .cronform folder: drizzle-kit wants paths relative to its cwd.
const scratch = mkdtempSync(path.join(repoRoot, '.cronform', 'drift-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('migrations', () => {
  it('match the drizzle schema (no pending generated migration)', () => {
    const out = path.join(scratch, 'migrations');
    cpSync(path.join(repoRoot, 'migrations'), out, { recursive: true });
    const before = readdirSync(out).sort();
    const config = path.join(scratch, 'drizzle.config.json');
    writeFileSync(config, JSON.stringify({ dialect: 'postgresql', schema: './src/db/schema.ts', out: `./${path.relative(repoRoot, out)}` }));
    const output = execFileSync(path.join(repoRoot, 'node_modules/.bin/drizzle-kit'), ['generate', '--config', config], { cwd: repoRoot, encoding: 'utf8' });
    expect(readdirSync(out).sort()).toEqual(before);
    expect(output).toMatch(/No schema changes/);
  }, 60_000);
});
