/**
 * One owner for the embedded database. A long-lived process (`dev`, `runner` without a URL) opens
 * `.cronform/db`, keeps it, and serves it on a socket next to it; every other cronform process
 * that finds it in the lock file connects there with the `pg` driver and sees the same data. With
 * no owner, a command opens the directory itself under the lock for as long as it runs. Two
 * PGlite instances never open one directory.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, openPglite, type Database } from '../db/client.js';
import { servePglite, type ServeAddress } from '../db/pglite-server.js';
import { EmbeddedDatabaseBusyError } from './embedded-database-busy-error.js';
import { acquireEmbeddedLock, type EmbeddedLock } from './embedded-lock.js';

/** How long a command waits for another short command to let go of the database. */
const SHORT_HOLDER_WAIT_MS = 10_000;
/** A client idle inside a transaction longer than this is disconnected (and rolled back). */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** sun_path is 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;
/** `pg` connects to `<host dir>/.s.PGSQL.<port>` for a host that is a directory. */
const SOCKET_PORT = 5432;

export const socketDirOf = (dataDir: string) => `${dataDir}.socket`;

/** The command line's first word, for lock files and messages (never its flags: they may hold secrets). */
export function describeCommand(argv: readonly string[] = process.argv): string {
  const id = argv.slice(2).find((word) => !word.startsWith('-'));
  return id ? `cronform ${id}` : 'cronform';
}

/** For short commands: through the owner if there is one, else locked for the process's lifetime. */
export async function openEmbeddedDatabase(dataDir: string, command: string): Promise<Database> {
  const outcome = await acquireEmbeddedLock(dataDir, { command, waitMs: SHORT_HOLDER_WAIT_MS });
  if (outcome.kind === 'served') {
    const { address, password } = outcome.holder.serving;
    return openDatabase({ url: servedUrl(address, password), maxConnections: 2, label: `embedded PGlite at ${dataDir}, served by \`${outcome.holder.command}\` (pid ${outcome.holder.pid})` });
  }
  return openLocked(dataDir, outcome.lock);
}

async function openLocked(dataDir: string, lock: EmbeddedLock): Promise<Database> {
  try {
    const database = await openDatabase({ dataDir });
    return {
      ...database,
      close: async () => {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

export interface ServedDatabase {
  database: Database;
  /** Where other processes connect, for the person at the terminal. */
  address: ServeAddress;
}

/** For long-lived processes: own the database and serve it; refuses while another process owns it. */
export async function serveEmbeddedDatabase(dataDir: string, command: string, options: { waitMs?: number } = {}): Promise<ServedDatabase> {
  const outcome = await acquireEmbeddedLock(dataDir, { command, waitMs: options.waitMs ?? SHORT_HOLDER_WAIT_MS });
  if (outcome.kind === 'served') throw new EmbeddedDatabaseBusyError(dataDir, outcome.holder, 'owned and served by');
  const lock = outcome.lock;
  let opened: Awaited<ReturnType<typeof openPglite>> | undefined;
  try {
    opened = await openPglite({ dataDir });
    const password = randomBytes(24).toString('base64url');
    const server = await servePglite(opened.client, socketAddressFor(dataDir), { password, idleInTransactionMs: IDLE_IN_TRANSACTION_MS });
    lock.announce({ address: server.address, password });
    const database = opened.database;
    return {
      address: server.address,
      database: {
        ...database,
        label: `${database.label} (serving ${describeAddress(server.address)})`,
        listen: (channel, onNotify) => server.listen(channel, onNotify),
        close: async () => {
          try {
            await server.close();
            await database.close();
          } finally {
            rmSync(socketDirOf(dataDir), { recursive: true, force: true });
            lock.release();
          }
        },
      },
    };
  } catch (error) {
    await opened?.database.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

/** A Unix socket in a directory only this user may enter; TCP on loopback if the path is too long. */
function socketAddressFor(dataDir: string): ServeAddress {
  const dir = path.resolve(socketDirOf(dataDir));
  const socketPath = path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);
  if (process.platform === 'win32' || Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) return { host: '127.0.0.1', port: 0 };
  // We hold the lock: whatever is left there is a dead owner's.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return { path: socketPath };
}

export function describeAddress(address: ServeAddress): string {
  return 'path' in address ? address.path : `${address.host}:${address.port}`;
}

function servedUrl(address: ServeAddress, password: string): string {
  const credentials = `cronform:${encodeURIComponent(password)}`;
  if ('path' in address) return `postgresql://${credentials}@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(path.dirname(address.path))}`;
  return `postgresql://${credentials}@${address.host}:${address.port}/postgres`;
}
