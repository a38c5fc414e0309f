/**
 * Structured logs: one JSON object per line on stderr (stdout stays for command output).
 * Level filtering by CRONFORM_LOG_LEVEL (debug, info, warn, error; default info).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createJsonLogger(options: { level?: LogLevel; write?: (line: string) => void; base?: Record<string, unknown>; now?: () => number } = {}): Logger {
  const threshold = RANK[options.level ?? ((process.env.CRONFORM_LOG_LEVEL as LogLevel | undefined) ?? 'info')] ?? RANK.info;
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < threshold) return;
    write(JSON.stringify({ time: new Date(now()).toISOString(), level, msg: message, ...options.base, ...fields }));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
