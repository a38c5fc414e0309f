import { describe, expect, it } from 'vitest';
import { ownerFileName } from '../../../src/operations/runs/manifest-export.js';
import { requeueStatuses } from '../../../src/operations/runs/requeue-order.js';
import { parseInstant, parseInstantOrDuration } from '../../../src/operations/runs/time-input.js';

const NOW_MS = Date.parse('2026-11-29T12:00:00Z');

describe('parseInstant', () => {
  it.each([
    ['2026-03-01T09:00:00Z', '2026-03-01T09:00:00.000Z'],
    ['2026-03-01T18:00:00+09:00', '2026-03-01T09:00:00.000Z'],
    ['2026-03-01T09:00Z', '2026-03-01T09:00:00.000Z'],
    ['2026-03-01T09:00:00.250Z', '2026-03-01T09:00:00.250Z'],
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(new Date(parseInstant(text, '--from')).toISOString()).toBe(iso);
  });

  it.each(['2026-03-01T09:00:00', 'yesterday', '2026-13-01T00:00:00Z', '1700000000'])('refuses %s (no zone: never the server zone)', (text) => {
    expect(() => parseInstant(text, '--from')).toThrow(`--from must be an ISO-8601 instant with a zone, e.g. 2026-03-01T09:00:00Z or 2026-03-01T18:00:00+09:00 (got ${JSON.stringify(text)})`);
  });
});

describe('parseInstantOrDuration', () => {
  it('counts a duration ahead for deadlines and back for windows', () => {
    expect(parseInstantOrDuration('2h', '--until', NOW_MS, 'ahead')).toBe(NOW_MS + 7_200_000);
    expect(parseInstantOrDuration('7d', '--since', NOW_MS, 'ago')).toBe(NOW_MS - 7 * 86_400_000);
    expect(parseInstantOrDuration('2026-12-01T00:00:00Z', '--until', NOW_MS, 'ahead')).toBe(Date.parse('2026-12-01T00:00:00Z'));
    expect(() => parseInstantOrDuration('2 hours', '--until', NOW_MS, 'ahead')).toThrow('--until must be an ISO-8601 instant with a zone (2026-03-01T09:00:00Z) or a duration (30m, 2h, 7d) (got "2 hours")');
  });
});

describe('requeueStatuses', () => {
  it.each([
    ['ALLOW', true, ['QUEUED', 'QUEUED', 'QUEUED']],
    ['SKIP_NEW', false, ['QUEUED', 'PENDING', 'PENDING']],
    ['QUEUE_NEW', true, ['PENDING', 'PENDING', 'PENDING']],
  ] as const)('%s with an active run: %s', (overlap, active, expected) => {
    expect(requeueStatuses(3, overlap, active)).toEqual(expected);
  });
});

describe('ownerFileName', () => {
  it.each([
    ['platform-team', 'platform-team.yaml'],
    ['SRE Team', 'sre-team.yaml'],
    ['ops@example.com', 'ops-example-com.yaml'],
    [null, 'unowned.yaml'],
    ['***', 'unowned.yaml'],
  ])('%s → %s', (owner, file) => {
    expect(ownerFileName(owner)).toBe(file);
  });
});
