import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';

const nowMs = Date.parse('2026-11-29T12:00:00Z');

function compileOne(text: string) {
  const result = compileSources([{ file: 'schedules/a.yaml', text }], nowMs);
  expect(result.diagnostics).toEqual([]);
  expect(result.schedules).toHaveLength(1);
  return result.schedules[0]!;
}

const minimal = `apiVersion: cronform/v1
kind: Schedule
metadata:
  name: daily-report
spec:
  cron: "30 19 * * *"
  timezone: Asia/Seoul
  job: { type: command, command: ["node", "jobs/daily-report.js"] }
`;

describe('compileSchedule', () => {
  it('applies every default and converts durations to milliseconds', () => {
    expect(compileOne(minimal)).toMatchObject({
      definition: {
        name: 'daily-report',
        description: null,
        enabled: true,
        job: { type: 'command', command: ['node', 'jobs/daily-report.js'], cwd: '.', env: {} },
        timeoutMs: 3_600_000,
        overlap: 'SKIP_NEW',
        misfire: 'RUN_ONCE',
        maxCatchUp: 100,
        gracePeriodMs: 86_400_000,
        retry: { maxAttempts: 1, backoff: 'exponential', initialDelayMs: 30_000, maxDelayMs: 600_000 },
        onStall: 'retry',
        priority: 'NORMAL',
        criticality: 'MEDIUM',
        queue: 'default',
        jitterMs: 0,
        dst: { gap: 'shift', fold: 'first' },
        businessDate: { offsetDays: 0 },
        approval: 'none',
        payload: {},
      },
      intervalLike: false,
      minIntervalMs: 86_400_000,
      previousName: null,
      source: { file: 'schedules/a.yaml', line: 1, column: 1 },
    });
  });

  it('compiles allowedFailures (a count or a percent) and safety, and leaves them out when unset (stored digests stay)', () => {
    const withSpec = (lines: string) => minimal.replace('  job:', `${lines}\n  job:`);
    expect(compileOne(withSpec('  allowedFailures: 10\n  safety: { maxAffected: 10000 }')).definition).toMatchObject({ allowedFailures: { count: 10 }, safety: { maxAffected: 10_000 } });
    expect(compileOne(withSpec('  allowedFailures: "1.5%"')).definition.allowedFailures).toEqual({ percent: 1.5 });
    const plain = compileOne(minimal).definition;
    expect('allowedFailures' in plain || 'safety' in plain).toBe(false);
  });

  it.each([
    ['  allowedFailures: "150%"', 'CF013', 'spec.allowedFailures must be a string matching ^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$ (got "150%")'],
    ['  allowedFailures: -1', 'CF013', 'spec.allowedFailures must be >= 0 (got -1)'],
    ['  safety: { maxAffected: -1 }', 'CF013', 'spec.safety.maxAffected must be >= 0 (got -1)'],
    ['  safety: {}', 'CF014', 'missing required field "spec.safety.maxAffected"'],
  ])('refuses %s with a located diagnostic', (line, code, message) => {
    const result = compileSources([{ file: 'schedules/a.yaml', text: minimal.replace('  job:', `${line}\n  job:`) }], nowMs);
    expect(result.schedules).toEqual([]);
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', code, file: 'schedules/a.yaml', line: 8, message }));
  });

  it('keeps the digest when only formatting, comments and key order change', () => {
    const reordered = `# the daily report
kind: Schedule
apiVersion: cronform/v1
spec:
  job:
    command:
      - node
      - jobs/daily-report.js
    type: command
  timezone: "Asia/Seoul"   # Seoul
  cron: '30 19 * * *'
metadata: { name: daily-report }
`;
    expect(compileOne(reordered).digest).toBe(compileOne(minimal).digest);
  });

  it('changes the digest when a value changes, including a default made explicit to another value', () => {
    const base = compileOne(minimal).digest;
    expect(compileOne(minimal.replace('30 19', '31 19')).digest).not.toBe(base);
    expect(compileOne(`${minimal}  overlap: QUEUE_NEW\n`).digest).not.toBe(base);
    // Writing a default explicitly is not a change.
    expect(compileOne(`${minimal}  overlap: SKIP_NEW\n`).digest).toBe(base);
  });

  it('gives interval-like schedules a grace period of one period and a timeout below it', () => {
    const fiveMinutes = compileOne(minimal.replace('30 19 * * *', '*/5 * * * *'));
    expect(fiveMinutes).toMatchObject({ intervalLike: true, minIntervalMs: 300_000, definition: { gracePeriodMs: 300_000, timeoutMs: 270_000 } });
  });
});
