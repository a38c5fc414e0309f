/**
 * The benchmarks measure the built CLI in dist/: whether it is older than src/ (a build would
 * change what is measured).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtimeMs(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when the built `entry` is older than some file under `repoRoot`/src. */
export function isDistStale(repoRoot, entry) {
  return statSync(entry).mtimeMs < newestMtimeMs(path.join(repoRoot, 'src'));
}
