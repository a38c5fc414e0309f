/**
 * A cronform runner process for the benchmark: opens the database and starts a Runner with the
 * no-op executor (engine cost only: claim, lease, complete) or the real executors (`--real`).
 *
 *   node bench/runner/cronform-runner.js <database-url> <concurrency> [--real]
 * Driven over IPC by the benchmark (child-protocol.js); not meant to be run by hand. With
 * BENCH_CRONFORM_DIST=<dir>, the runner is that build's instead of this checkout's dist/ (the
 * `real` benchmark's --baseline-dist: two builds measured in the same rounds).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serveChild } from './child-protocol.js';

const dist = pathToFileURL(path.resolve(process.env.BENCH_CRONFORM_DIST ?? new URL('../../dist', import.meta.url).pathname)).href;
const { openDatabase } = await import(`${dist}/db/client.js`);
const { Runner } = await import(`${dist}/runner/runner.js`);
const { systemClock } = await import(`${dist}/shared/clock.js`);

const [url, concurrencyText, mode] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const noop = async () => ({ status: 'SUCCEEDED', exitCode: 0, httpStatus: null, error: null, stdoutTail: null, stderrTail: null, durationMs: 0 });

const database = await openDatabase({ url, maxConnections: Math.max(10, concurrency + 2) });
// Warm one pooled connection so the first claim does not pay for connecting.
await database.db.$client.query('select 1');
const runner = new Runner(database, {
  clock: systemClock,
  concurrency,
  leaseMs: 30_000,
  baseDir: repoRoot,
  env: process.env,
  ...(mode === '--real' ? {} : { execute: noop }),
});

serveChild({
  start: () => runner.start(),
  stop: async () => {
    await runner.stop();
    await database.close();
    return { pid: process.pid };
  },
});
