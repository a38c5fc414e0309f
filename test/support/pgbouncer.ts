/**
 * A real PgBouncer (Debian's `pgbouncer`, installed by `.ci/run` when missing) in front of the test
 * PostgreSQL server, started by the test on a free loopback port. PgBouncer refuses to run as root,
 * so as root it is started as the `postgres` user through `setpriv` (which execs: the pid is
 * PgBouncer's own, and a signal reaches it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes.js';

export type PoolMode = 'session' | 'transaction';

export interface Pgbouncer {
  /** `serverUrl` with its host and port replaced by PgBouncer's. */
  urlFor(serverUrl: string): string;
  log(): string;
  stop(): Promise<void>;
}

export const pgbouncerBinary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((candidate) => spawnSync(candidate, ['--version']).status === 0);

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${port}: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startPgbouncer(serverUrl: string, poolMode: PoolMode): Promise<Pgbouncer> {
  if (!pgbouncerBinary) throw new Error('pgbouncer is not installed: apt-get install -y pgbouncer (.ci/run does)');
  const server = new URL(serverUrl);
  const directory = mkdtempSync(path.join(tmpdir(), 'cronform-pgbouncer-'));
  chmodSync(directory, 0o755);
  const port = await freePort();
  const logFile = path.join(directory, 'pgbouncer.log');
  const user = decodeURIComponent(server.username || 'postgres');
  writeFileSync(path.join(directory, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    path.join(directory, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(directory, 'users.txt')}`,
      `pool_mode = ${poolMode}`,
      // Session mode pins a server connection per client connection, so it needs as many as the
      // clients hold; transaction mode shares a few, which is what shows no session state is assumed.
      `default_pool_size = ${poolMode === 'session' ? 60 : 4}`,
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${logFile}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  // PgBouncer (the postgres user) appends to the log; a mode given to writeFileSync is cut by the umask.
  writeFileSync(logFile, '');
  chmodSync(logFile, 0o666);
  const config = path.join(directory, 'pgbouncer.ini');
  const asRoot = process.getuid?.() === 0;
  const child = asRoot
    ? spawn('setpriv', ['--reuid=postgres', '--regid=postgres', '--clear-groups', pgbouncerBinary, config], { stdio: 'ignore' })
    : spawn(pgbouncerBinary, [config], { stdio: 'ignore' });
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '(no log)';
    }
  };
  await waitForPort(port, child, log);
  return {
    urlFor(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
