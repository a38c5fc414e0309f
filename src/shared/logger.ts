/**
 * Structured logs through pino: one JSON object per line on stderr (stdout stays for command
 * output), pretty lines (pino-pretty) when stderr is a terminal. Level by `--log-level` or
 * CRONFORM_LOG_LEVEL (debug, info, warn, error; default info).
 *
 * The code logs through the small `Logger` interface below, not through pino itself: a line about
 * a run is written by a child logger (`child({ runId, schedule, scheduledFor, attempt })`), so its
 * fields are bound once and can never be left out; tests capture lines through `write`.
 */
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import prettyFactory from 'pino-pretty';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line also carries `bindings` (a run's id, schedule, slot and attempt). */
  child(bindings: Record<string, unknown>): Logger;
}

export interface JsonLoggerOptions {
  /** Default: CRONFORM_LOG_LEVEL, else info. */
  level?: LogLevel | undefined;
  /** Receives each line (without its newline); default: stderr, pretty when it is a terminal. */
  write?: (line: string) => void;
  base?: Record<string, unknown>;
  now?: () => number;
  /** Pretty output instead of JSON; default: when stderr is a terminal and `write` is not given. */
  pretty?: boolean;
}

/** The level from CRONFORM_LOG_LEVEL, or undefined when it is unset; throws on an unknown word. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel | undefined {
  const value = env.CRONFORM_LOG_LEVEL;
  if (value === undefined || value === '') return undefined;
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new Error(`CRONFORM_LOG_LEVEL=${value} is not a log level (use ${LOG_LEVELS.join(', ')})`);
  return value as LogLevel;
}

export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const now = options.now;
  const pretty = options.pretty ?? (options.write === undefined && process.stderr.isTTY === true);
  const instance = pino(
    {
      level: options.level ?? logLevelFromEnv() ?? 'info',
      base: options.base ?? null,
      messageKey: 'msg',
      // Level words, not pino's numbers: what an operator greps for, and what the lines said before pino.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: () => `,"time":"${new Date(now ? now() : Date.now()).toISOString()}"`,
    },
    destinationOf(options.write, pretty),
  );
  return wrap(instance);
}

function destinationOf(write: ((line: string) => void) | undefined, pretty: boolean): DestinationStream {
  if (pretty) return prettyStream();
  if (write) return { write: (chunk: string) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) };
  // Synchronous, as the hand-written logger was: a line logged just before exit is not lost.
  return pino.destination({ fd: 2, sync: true });
}

function prettyStream(): DestinationStream {
  // pino-pretty in this thread (not a transport worker): a terminal reads a few lines a second.
  return prettyFactory({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

function wrap(instance: PinoLogger): Logger {
  const emit = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (fields) instance[level](fields, message);
    else instance[level](message);
  };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (bindings) => wrap(instance.child(bindings)),
  };
}

export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silentLogger };
