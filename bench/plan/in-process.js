/**
 * The plan use case without the CLI around it, split into the phases of `planChanges`: import,
 * compile (read + validate + compile manifests), open the database, load stored state, diff + risk
 * (buildPlan), render (text and markdown). The first pass runs in a fresh process (cold JIT, as in
 * the CLI); the next passes are warm. Run by `run.js` in its own process; prints one JSON object.
 *
 *   node bench/plan/in-process.js <workspace> <manifest dir> [warm passes]     (DATABASE_URL: PostgreSQL, else PGlite)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [workspace, directory, warmArg] = process.argv.slice(2);
if (!workspace || !directory) throw new Error('usage: in-process.js <workspace> <manifest dir> [warm passes]');
const warmPasses = Number(warmArg ?? 2);
const elapsed = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const dist = (file) => import(path.join(repoRoot, 'dist', file));

let started = process.hrtime.bigint();
const { loadDesired, loadStoredState } = await dist('operations/plan.js');
const { openChosenDatabase } = await dist('operations/database.js');
const { buildPlan } = await dist('plan/build-plan.js');
const { renderPlanText } = await dist('plan/render-text.js');
const { renderPlanMarkdown } = await dist('plan/render-markdown.js');
const importMs = elapsed(started);

/** The same steps, in the same order, as planChanges → planAgainstDatabase → the plan command, on one thread (the CLI opens and reads on a worker thread while it compiles). */
async function pass(database) {
  const nowMs = Date.now();
  const phases = {};
  let t = process.hrtime.bigint();
  const desired = await loadDesired({ dir: directory, cwd: workspace, nowMs });
  phases.compileMs = elapsed(t);
  t = process.hrtime.bigint();
  const stored = await loadStoredState(database, desired, { nowMs });
  phases.loadStoredMs = elapsed(t);
  t = process.hrtime.bigint();
  const plan = buildPlan({ desired, nowMs, ...stored, against: { kind: 'database', engine: database.engine } });
  phases.diffAndRiskMs = elapsed(t);
  t = process.hrtime.bigint();
  const text = renderPlanText(plan, { color: false });
  phases.renderTextMs = elapsed(t);
  t = process.hrtime.bigint();
  const markdown = renderPlanMarkdown(plan);
  phases.renderMarkdownMs = elapsed(t);
  return { phases, changes: plan.changes.length, errors: plan.errors.length, textBytes: Buffer.byteLength(text), markdownBytes: Buffer.byteLength(markdown) };
}

started = process.hrtime.bigint();
const database = await openChosenDatabase({ cwd: workspace });
const openMs = elapsed(started);
try {
  const first = await pass(database);
  const warm = [];
  for (let i = 0; i < warmPasses; i += 1) warm.push((await pass(database)).phases);
  console.log(JSON.stringify({ engine: database.engine, importMs, openMs, first, warm, maxRssKb: process.resourceUsage().maxRSS }));
} finally {
  await database.close();
}
