/**
 * The validate use case without the CLI around it: time to import it, its first run in a fresh
 * process (cold JIT, as in the CLI), then warm runs split into loading and compiling. Run by
 * `run.js` in its own process; prints one JSON object.
 *
 *   node bench/validate/in-process.js <manifest dir> [warm runs]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const directory = process.argv[2];
const warmRuns = Number(process.argv[3] ?? 3);
if (!directory) throw new Error('usage: in-process.js <manifest dir> [warm runs]');
// A fixed instant: the result must not depend on the day the benchmark runs.
const nowMs = Date.parse('2026-11-29T00:00:00Z');
const options = { cwd: repoRoot, nowMs };
const elapsed = (started) => Number(process.hrtime.bigint() - started) / 1e6;

let started = process.hrtime.bigint();
const { validateManifests } = await import(path.join(repoRoot, 'dist/operations/validate.js'));
const { loadManifestSources } = await import(path.join(repoRoot, 'dist/manifest/load.js'));
const { compileSources } = await import(path.join(repoRoot, 'dist/compile/compile-sources.js'));
const importMs = elapsed(started);

started = process.hrtime.bigint();
const first = await validateManifests([directory], options);
const firstMs = elapsed(started);
const firstRssKb = process.resourceUsage().maxRSS;

const warm = [];
for (let i = 0; i < warmRuns; i += 1) {
  started = process.hrtime.bigint();
  const loaded = await loadManifestSources([directory], { cwd: repoRoot });
  const loadMs = elapsed(started);
  started = process.hrtime.bigint();
  compileSources(loaded.sources, nowMs);
  warm.push({ loadMs, compileMs: elapsed(started) });
}

console.log(JSON.stringify({
  importMs,
  firstMs,
  firstRssKb,
  schedules: first.schedules.length,
  errors: first.diagnostics.filter((d) => d.severity === 'error').length,
  warm,
}));
