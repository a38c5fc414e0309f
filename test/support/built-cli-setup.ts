/**
 * globalSetup of the projects that run the built CLI (`system`, `chaos`): builds dist/ once per run
 * when it is missing or older than src/ (CI's `npm ci` has just built it, so there it costs nothing),
 * so no test compiles TypeScript on its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDistStale } from '../../bench/shared/built-dist.js';

export default function setup(): void {
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
  const entry = path.join(repoRoot, 'dist', 'commands', 'index.js');
  if (existsSync(entry) && !isDistStale(repoRoot, entry)) return;
  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
}
