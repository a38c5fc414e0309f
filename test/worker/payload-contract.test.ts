/**
 * The queue payload is written in three places that cannot import each other: the runner builds it
 * (runner/queue-handoff.ts), the `cronform/worker` export types it for the queue's workers
 * (worker/report-to.ts imports nothing of cronform), and a `sql` job's arguments name its fields
 * (compile/definition.ts). The type assertions fail the typecheck when one of them drifts; the
 * run-time check covers the object the runner really builds.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { QUEUE_ARGUMENT_SOURCES, type Definition } from '../../src/compile/definition.js';
import type { ClaimedRun } from '../../src/db/worker-queries.js';
import { queuePayloadOf, type QueuePayload } from '../../src/runner/queue-handoff.js';
import type { HandedOffRun } from '../../src/worker/index.js';

describe('the queue payload contract', () => {
  it('is one shape for the runner, the worker export and the sql arguments', () => {
    expectTypeOf<QueuePayload>().toEqualTypeOf<HandedOffRun>();
    expectTypeOf<Exclude<(typeof QUEUE_ARGUMENT_SOURCES)[number], 'document'>>().toEqualTypeOf<keyof HandedOffRun>();
    const run = { id: 7, attempt: 2, idempotencyKey: 'billing:2026-12-01T00:00Z:SCHEDULED', scheduleName: 'billing', businessDate: '2026-12-01', scheduledFor: new Date('2026-12-01T00:00:00Z'), triggerType: 'SCHEDULED' } as ClaimedRun;
    const payload = queuePayloadOf(run, { payload: { region: 'eu' } } as unknown as Definition);
    expect(Object.keys(payload).sort()).toEqual(QUEUE_ARGUMENT_SOURCES.filter((source) => source !== 'document').sort());
    expect(payload).toEqual({ scheduleRunId: 7, attempt: 2, idempotencyKey: run.idempotencyKey, schedule: 'billing', businessDate: '2026-12-01', scheduledFor: '2026-12-01T00:00:00.000Z', trigger: 'SCHEDULED', payload: { region: 'eu' } });
  });
});
