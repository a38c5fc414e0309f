/**
 * The worker thread of `StoredStateReader` (stored-state-reader.ts): opens the database and lists
 * the stored schedules while the main thread compiles the manifests, tallies their totals and
 * finds the manifests' herds while the main thread digests and pairs, then reads what the pairing
 * asks for, all in one read-only snapshot as `loadStoredState` does. It exits when done, and its
 * memory (PGlite's WebAssembly PostgreSQL included) goes with it.
 */
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { listStoredScheduleSummaries, loadDefinitions, loadRunHistory } from '../db/schedule-queries.js';
import { readStoredPolicy, readStoredRiskAcceptances } from '../db/settings-queries.js';
import { findSharedInstantsInColumns, indexSharedInstants, tallyStored } from '../plan/repository-totals.js';
import { openChosenDatabase, type DatabaseChoice } from './database.js';
import type { ErrorDetails, StoredStateReply, StoredStateRequest } from './stored-state-reader.js';

// PGlite's PostgreSQL runs as WebAssembly, compiled first by V8's baseline compiler (Liftoff);
// by default the functions that get warm are compiled again, optimized (TurboFan), on background
// threads. A plan's few queries end before that pays back: on 2 cores it took CPU from the
// compile on the main thread and added ~50 MB of peak memory. A budget this high leaves only
// functions that run for seconds to the optimizing compiler. The flag is process-wide; only
// PGlite runs WebAssembly, and it is set before PGlite compiles its module (openDatabase loads it).
setFlagsFromString('--wasm-tiering-budget=1000000000');

const port = parentPort!;
const { choice, nowMs } = workerData as { choice: DatabaseChoice; nowMs: number };
const reply = (message: StoredStateReply) => port.postMessage(message);

/** Requests in arrival order: the main thread may send the next before this one is taken. */
const inbox: StoredStateRequest[] = [];
let wake: (() => void) | undefined;
const listener = (request: StoredStateRequest) => {
  inbox.push(request);
  wake?.();
};
port.on('message', listener);

/**
 * A cloned Error keeps its message, stack and cause only: the name and the fields (`code`,
 * `errno`, `path`…) of each level of the cause chain travel beside it, so the command reports the
 * error as it did when the database was read on the main thread (`Code: 3D000`, the driver's
 * `error:` name).
 */
function errorDetails(error: unknown): ErrorDetails {
  const levels: ErrorDetails = [];
  for (let level = error; typeof level === 'object' && level !== null && levels.length < 10; level = (level as { cause?: unknown }).cause) {
    const fields = Object.entries(level).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value));
    const { name } = level as { name?: unknown };
    levels.push(Object.fromEntries(typeof name === 'string' ? [...fields, ['name', name]] : fields) as ErrorDetails[number]);
  }
  return levels;
}

/** Thrown inside the transaction to roll it back when the main thread no longer needs the state. */
class Cancelled extends Error {}

async function nextRequest<K extends Exclude<StoredStateRequest['kind'], 'cancel'>>(kind: K): Promise<Extract<StoredStateRequest, { kind: K }>> {
  while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  const request = inbox.shift()!;
  if (request.kind === 'cancel') throw new Cancelled();
  if (request.kind !== kind) throw new Error(`the plan asked for ${request.kind} where ${kind} was expected`);
  return request as Extract<StoredStateRequest, { kind: K }>;
}

try {
  const database = await openChosenDatabase(choice);
  try {
    await database.db.transaction(
      async (tx) => {
        const current = await listStoredScheduleSummaries(tx);
        reply({ kind: 'summaries', engine: database.engine, current });
        // The sums that need no compiled definition, while the main thread digests and pairs.
        reply({ kind: 'tally', tally: tallyStored(current, nowMs) });
        const herds = findSharedInstantsInColumns((await nextRequest('herds')).columns, nowMs);
        const request = await nextRequest('details');
        const storedDefinitions = await loadDefinitions(tx, request.definitionIds);
        const history = await loadRunHistory(tx, request.archiveIds, nowMs);
        const storedPolicy = await readStoredPolicy(tx);
        const storedRiskAcceptances = await readStoredRiskAcceptances(tx);
        reply({ kind: 'details', storedDefinitions, history, storedPolicy, storedRiskAcceptances, herds: indexSharedInstants(herds, new Set(request.herdNames)) });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof Cancelled)) reply({ kind: 'error', error, details: errorDetails(error) });
} finally {
  // The listener keeps the thread alive: without it, the thread exits once the database is closed.
  port.off('message', listener);
}
