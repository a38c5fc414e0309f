/**
 * The worker thread of `StoredStateReader` (stored-state-reader.ts): opens the database and lists
 * the stored schedules while the main thread compiles the manifests, tallies their totals while
 * the main thread pairs, then reads what the pairing asks for, all in one read-only snapshot as `loadStoredState` does. It exits when done, and its
 * memory (PGlite's WebAssembly PostgreSQL included) goes with it.
 */
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { listStoredScheduleSummaries, loadDefinitions, loadRunHistory } from '../db/schedule-queries.js';
import { readStoredPolicy } from '../db/settings-queries.js';
import { tallyStored } from '../plan/repository-totals.js';
import { openChosenDatabase, type DatabaseChoice } from './database.js';
import type { StoredStateReply, StoredStateRequest } from './stored-state-reader.js';

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
const nextRequest = () => new Promise<StoredStateRequest>((resolve) => port.once('message', resolve));

/**
 * A cloned Error keeps its message and stack only: `code`, `errno`, `path`… travel beside it, so
 * the command reports the error as it did when the database was read on the main thread.
 */
function primitiveProperties(error: unknown): Record<string, string | number | boolean> {
  if (typeof error !== 'object' || error === null) return {};
  return Object.fromEntries(Object.entries(error).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value)));
}

/** Thrown inside the transaction to roll it back when the main thread no longer needs the state. */
class Cancelled extends Error {}

try {
  const database = await openChosenDatabase(choice);
  try {
    await database.db.transaction(
      async (tx) => {
        const current = await listStoredScheduleSummaries(tx);
        const requested = nextRequest();
        reply({ kind: 'summaries', engine: database.engine, current });
        // The stored side's totals, while the main thread pairs and this thread would wait anyway.
        reply({ kind: 'tally', tally: tallyStored(current, nowMs) });
        const request = await requested;
        if (request.kind === 'cancel') throw new Cancelled();
        const storedDefinitions = await loadDefinitions(tx, request.definitionIds);
        const history = await loadRunHistory(tx, request.archiveIds, nowMs);
        reply({ kind: 'details', storedDefinitions, history, storedPolicy: await readStoredPolicy(tx) });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof Cancelled)) reply({ kind: 'error', error, properties: primitiveProperties(error) });
}
