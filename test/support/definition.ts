/** One full Definition with neutral defaults; tests override only what they are about. */
import type { Definition } from '../../src/compile/definition.js';

export function makeDefinition(overrides: Partial<Definition> = {}): Definition {
  return {
    name: 'hourly-sync',
    description: null,
    owner: null,
    labels: {},
    cron: '0 * * * *',
    timezone: 'UTC',
    enabled: true,
    dayMatch: null,
    job: { type: 'command', command: ['node', 'jobs/sync.js'], cwd: '.', env: {} },
    timeoutMs: 20 * 60_000,
    overlap: 'ALLOW',
    misfire: 'RUN_ONCE',
    maxCatchUp: 100,
    gracePeriodMs: 3_600_000,
    retry: { maxAttempts: 3, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 },
    onStall: 'retry',
    priority: 'NORMAL',
    criticality: 'MEDIUM',
    queue: 'default',
    jitterMs: 0,
    dst: { gap: 'shift', fold: 'first' },
    businessDate: { offsetDays: 0 },
    approval: 'none',
    payload: {},
    ...overrides,
  };
}
