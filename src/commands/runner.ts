import { Flags } from '@oclif/core';
import { parseDurationMs } from '../compile/duration.js';
import { checkNotificationsArrive, type Database } from '../db/client.js';
import { AllowedHostsError, checkDashboardConfiguration, DashboardConfigurationError, parseAllowedHosts, readDashboardToken } from '../http/dashboard/index.js';
import { ListenAddressError, parseListenAddress } from '../http/listen-address.js';
import type { RunnerMetrics } from '../http/metrics/runner-metrics.js';
import { createRunnerMetrics, startRunnerHttpServer } from '../http/runner-http.js';
import { HttpListenError, type HttpServer } from '../http/server.js';
import { openChosenDatabaseWhenReachable } from '../operations/database.js';
import { Runner } from '../runner/runner.js';
import { systemClock } from '../shared/clock.js';
import { createJsonLogger, LOG_LEVELS, type Logger, type LogLevel } from '../shared/logger.js';
import { waitForShutdownSignal } from '../shared/shutdown-signal.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export const runnerFlags = {
  concurrency: Flags.integer({ description: 'attempts this runner executes at once', default: 10, min: 1 }),
  prefetch: Flags.integer({ description: 'most runs claimed ahead of free slots, sized by recent job durations to ~100 ms of waiting (0: claim only free slots)', default: 1000, min: 0 }),
  lease: Flags.string({ description: 'lease length; heartbeats extend it every third of it', default: '30s' }),
  'drain-timeout': Flags.string({ description: 'on SIGTERM/SIGINT, how long running attempts may finish before they are stopped and released', default: '30s' }),
  'kill-grace': Flags.string({ description: 'SIGTERM → SIGKILL delay when an attempt is stopped', default: '5s' }),
  'base-dir': Flags.string({ description: 'directory that command jobs\' cwd is relative to (default: current directory)' }),
  http: Flags.string({ description: 'serve GET /metrics (Prometheus), GET /healthz and the dashboard (GET /) on HOST:PORT, e.g. 127.0.0.1:9464', helpValue: 'HOST:PORT' }),
  'allow-actions': Flags.boolean({ description: 'let the dashboard trigger, approve, retry, cancel, pause and resume (requests must carry the bearer token from CRONFORM_DASHBOARD_TOKEN; each is audited as `dashboard`)', dependsOn: ['http'] }),
  'http-allowed-hosts': Flags.string({
    description: 'host names the dashboard answers to besides IP addresses and localhost, comma-separated, e.g. cronform.internal (any other Host header gets 421: DNS rebinding protection; /metrics and /healthz answer any)',
    helpValue: 'HOST,...',
    dependsOn: ['http'],
  }),
  'log-level': Flags.string({ description: 'least severe log line written (JSON on stderr, pretty on a terminal)', options: [...LOG_LEVELS], env: 'CRONFORM_LOG_LEVEL' }),
};

export interface DashboardSettings {
  allowActions: boolean;
  token: string | undefined;
  allowedHosts: string[];
}

/**
 * The --http value, the allowed hosts and the dashboard's actions checked before anything starts: a
 * typo or a missing token exits 1 with its reason, not after the database opened. Returns the
 * dashboard's settings.
 */
export function checkHttpAddress(address: string | undefined, fail: (message: string) => never, allowActions = false, allowedHosts?: string): DashboardSettings {
  const dashboard = { allowActions, token: allowActions ? readDashboardToken(process.env) : undefined, allowedHosts: [] as string[] };
  if (address === undefined) return dashboard;
  try {
    parseListenAddress(address);
    checkDashboardConfiguration(dashboard);
    dashboard.allowedHosts = parseAllowedHosts(allowedHosts);
  } catch (error) {
    if (error instanceof ListenAddressError || error instanceof DashboardConfigurationError || error instanceof AllowedHostsError) fail(error.message);
    throw error;
  }
  return dashboard;
}

/**
 * Starts the --http server for `runner` (metrics from `metrics`); a port in use or a foreign
 * address is the user's to fix: `fail` (exit 1) after `cleanUp`.
 */
export async function startHttpForRunner(
  address: string,
  context: { runner: Runner; metrics: RunnerMetrics; database: Database; logger: Logger; leaseMs: number; dashboard: DashboardSettings },
  fail: (message: string) => never,
  cleanUp: () => Promise<void>,
): Promise<HttpServer> {
  const { runner } = context;
  try {
    const server = await startRunnerHttpServer(address, {
      ...context,
      clock: systemClock,
      runner: { runnerId: runner.id, lastSuccessfulLoopMs: () => runner.lastSuccessfulLoopMs },
    });
    context.logger.info('http server listening', { url: server.url, paths: ['/metrics', '/healthz', '/'], dashboardActions: context.dashboard.allowActions });
    return server;
  } catch (error) {
    if (!(error instanceof HttpListenError)) throw error;
    await cleanUp();
    return fail(error.message);
  }
}

export default class RunnerCommand extends CronformCommand {
  static override summary = 'Run the scheduler, workers and reconciler (any number of replicas per database).';
  // Runs until stopped and returns nothing (its log lines are JSON already): no value for --json to print.
  static override enableJsonFlag = false;
  static override flags = {
    ...runnerFlags,
    ...databaseFlags,
    'listen-url': Flags.string({
      description: 'PostgreSQL URL for the LISTEN connection only (default: the database URL); needed when --database-url goes through PgBouncer in transaction mode, which cannot deliver notifications',
      env: 'CRONFORM_LISTEN_URL',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RunnerCommand);
    const dashboard = checkHttpAddress(flags.http, (message) => this.fail(message), flags['allow-actions'] ?? false, flags['http-allowed-hosts']);
    const logger = createJsonLogger({ base: { component: 'runner' }, level: flags['log-level'] as LogLevel | undefined });
    const startedMs = systemClock.nowMs();
    // Listening from the start: a SIGTERM while the database is still unreachable ends the
    // start-up with exit 0 (nothing runs yet, nothing to drain), instead of Node's default death.
    const shutdown = waitForShutdownSignal();
    let stopped = false;
    void shutdown.then(() => (stopped = true));
    const database = await openChosenDatabaseWhenReachable({ databaseUrl: flags['database-url'], listenUrl: flags['listen-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, logger, sleepUntil(shutdown)).catch((error: unknown) => {
      if (error === STOPPED) return undefined;
      throw error;
    });
    if (!database) return;
    const leaseMs = parseDurationMs(flags.lease);
    const metrics = flags.http ? createRunnerMetrics({ database, clock: systemClock, logger, leaseMs }) : undefined;
    const runner = new Runner(database, {
      clock: systemClock,
      concurrency: flags.concurrency,
      prefetch: flags.prefetch,
      leaseMs,
      drainTimeoutMs: parseDurationMs(flags['drain-timeout']),
      killGraceMs: parseDurationMs(flags['kill-grace']),
      baseDir: flags['base-dir'] ?? process.cwd(),
      env: process.env,
      logger,
      ...(metrics ? { observer: metrics } : {}),
      version: this.config.version,
      reachingDatabaseSinceMs: startedMs,
    });
    // Listening before the runner starts: a port in use stops the command before it takes any run.
    const server = flags.http && metrics ? await startHttpForRunner(flags.http, { runner, metrics, database, logger, leaseMs, dashboard }, (message) => this.fail(message), () => database.close()) : undefined;
    // The database may fail between the open and the start (an outage beginning): try again.
    for (let attempt = 1; ; attempt += 1) {
      const started = await runner.start().then(
        () => true,
        (error: unknown) => {
          logger.error('runner start failed; retrying', { error: (error as Error).message, attempt });
          return false;
        },
      );
      if (started) break;
      if (stopped || !(await sleepUntil(shutdown)(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6))).then(() => true, () => false))) {
        await server?.close();
        await database.close();
        return;
      }
    }
    if (database.engine === 'postgres') void warnWhenNotificationsAreLost(database, logger, flags['listen-url'] !== undefined);
    await shutdown;
    await runner.stop();
    await server?.close();
    await database.close();
  }
}

/**
 * NOTIFY wakes runners at once after an apply, a trigger or a cancel; without it they still act,
 * at their next timer. Behind a transaction-mode pooler it silently stops working, so the runner
 * checks once and says what to do.
 */
async function warnWhenNotificationsAreLost(database: Database, logger: Logger, listenUrlGiven: boolean): Promise<void> {
  const arrive = await checkNotificationsArrive(database, 5_000).catch(() => true);
  if (arrive) return;
  logger.warn(
    listenUrlGiven
      ? 'a NOTIFY sent through --database-url did not reach the --listen-url connection within 5 s: are both URLs the same database? Applies, triggers and cancels reach this runner only at its next timer'
      : 'a NOTIFY did not reach this runner within 5 s: is --database-url a pooler in transaction mode (PgBouncer pool_mode=transaction)? Pass --listen-url with a direct connection; until then applies, triggers and cancels reach this runner only at its next timer',
  );
}

/** Thrown by a start-up sleep interrupted by SIGTERM/SIGINT. */
const STOPPED = new Error('stopped by a signal during start-up');

/** A start-up sleep that rejects with STOPPED (its timer cleared) once `signal` resolves. */
function sleepUntil(signal: Promise<unknown>): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      void signal.then(() => {
        clearTimeout(timer);
        reject(STOPPED);
      });
    });
}
