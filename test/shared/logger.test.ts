import { describe, expect, it } from 'vitest';
import { createJsonLogger, logLevelFromEnv, silentLogger } from '../../src/shared/logger.js';

function capture(options: Parameters<typeof createJsonLogger>[0] = {}) {
  const lines: string[] = [];
  const logger = createJsonLogger({ now: () => Date.parse('2026-11-30T12:00:00Z'), write: (line) => lines.push(line), ...options });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createJsonLogger (pino)', () => {
  it('writes one JSON object per line with level word, time, base fields, fields and message', () => {
    const { logger, lines } = capture({ base: { component: 'runner' } });
    logger.info('runner started', { concurrency: 2 });
    expect(lines).toEqual(['{"level":"info","time":"2026-11-30T12:00:00.000Z","component":"runner","concurrency":2,"msg":"runner started"}']);
  });

  it('binds a child logger\'s fields to each of its lines, and leaves the parent alone', () => {
    const { logger, parsed } = capture();
    const run = logger.child({ runId: 7, schedule: 'nightly', scheduledFor: '2026-11-30T02:00:00.000Z', attempt: 2 });
    run.warn('attempt finished; run FAILED', { exitCode: 3 });
    logger.info('unrelated');
    expect(parsed()).toEqual([
      { level: 'warn', time: '2026-11-30T12:00:00.000Z', runId: 7, schedule: 'nightly', scheduledFor: '2026-11-30T02:00:00.000Z', attempt: 2, exitCode: 3, msg: 'attempt finished; run FAILED' },
      { level: 'info', time: '2026-11-30T12:00:00.000Z', msg: 'unrelated' },
    ]);
  });

  it('drops lines below its level', () => {
    const { logger, parsed } = capture({ level: 'warn' });
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(parsed().map((l) => l.level)).toEqual(['warn', 'error']);
  });

  it('reads CRONFORM_LOG_LEVEL, and refuses a word that is not a level', () => {
    expect(logLevelFromEnv({})).toBeUndefined();
    expect(logLevelFromEnv({ CRONFORM_LOG_LEVEL: 'debug' })).toBe('debug');
    expect(() => logLevelFromEnv({ CRONFORM_LOG_LEVEL: 'verbose' })).toThrow('CRONFORM_LOG_LEVEL=verbose is not a log level (use debug, info, warn, error)');
  });

  it('silentLogger and its children write nothing', () => {
    expect(() => silentLogger.child({ runId: 1 }).error('x')).not.toThrow();
  });
});
