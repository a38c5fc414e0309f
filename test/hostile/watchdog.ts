/**
 * "Never hangs" made testable. A synchronous infinite loop cannot be interrupted by a test timeout
 * (the event loop never runs again), so a watchdog thread watches a deadline in shared memory and,
 * when a guarded call overruns it, prints what was being processed and kills the test process:
 * vitest then reports the file as failed instead of waiting forever.
 */
import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';

/** Far above any assertion bound: only a real hang reaches it. */
const KILL_AFTER_MS = 15_000;
const LABEL_BYTES = 2_048;

const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const deadline = new Float64Array(workerData.deadline);
const tick = new Int32Array(workerData.tick);
const label = new Uint8Array(workerData.label);
for (;;) {
  Atomics.wait(tick, 0, 0, 200);
  const due = deadline[0];
  if (due > 0 && Date.now() > due) {
    const end = label.indexOf(0);
    const text = Buffer.from(label.subarray(0, end === -1 ? label.length : end)).toString('utf8');
    writeSync(2, '\\nwatchdog: a guarded call ran for more than ${KILL_AFTER_MS} ms (a hang); input: ' + text + '\\n');
    process.kill(process.pid, 'SIGKILL');
  }
}
`;

const deadlineBuffer = new SharedArrayBuffer(8);
const deadline = new Float64Array(deadlineBuffer);
const label = new Uint8Array(new SharedArrayBuffer(LABEL_BYTES));
let started = false;

function startWatchdog(): void {
  if (started) return;
  started = true;
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { deadline: deadlineBuffer, tick: new SharedArrayBuffer(4), label: label.buffer } });
  // The watchdog must never keep the test process alive on its own.
  worker.unref();
}

function describeInput(input: unknown): string {
  const text = typeof input === 'string' ? input : JSON.stringify(input) ?? String(input);
  return JSON.stringify(text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text);
}

/** The bound's assertion; the matcher and its message are built only when the bound is exceeded (hot path). */
function expectWithin(elapsedMs: number, maxMs: number, input: unknown): void {
  if (elapsedMs < maxMs) return;
  expect(elapsedMs, `took ${Math.round(elapsedMs)} ms for ${describeInput(input)}`).toBeLessThan(maxMs);
}

/**
 * Runs `work` under the watchdog and asserts it finished within `maxMs`. Returns its result;
 * exceptions propagate (the caller's property then fails with the counterexample).
 */
export function runBounded<T>(input: unknown, maxMs: number, work: () => T): T {
  startWatchdog();
  label.fill(0);
  label.set(Buffer.from(describeInput(input)).subarray(0, LABEL_BYTES - 1));
  const startedAt = performance.now();
  deadline[0] = Date.now() + KILL_AFTER_MS;
  try {
    return work();
  } finally {
    deadline[0] = 0;
    expectWithin(performance.now() - startedAt, maxMs, input);
  }
}

/** `runBounded` for promises: the watchdog still catches a synchronous hang inside them. */
export async function runBoundedAsync<T>(input: unknown, maxMs: number, work: () => Promise<T>): Promise<T> {
  startWatchdog();
  label.fill(0);
  label.set(Buffer.from(describeInput(input)).subarray(0, LABEL_BYTES - 1));
  const startedAt = performance.now();
  deadline[0] = Date.now() + KILL_AFTER_MS;
  try {
    return await work();
  } finally {
    deadline[0] = 0;
    expectWithin(performance.now() - startedAt, maxMs, input);
  }
}
