/**
 * Serves one PGlite to other processes over the PostgreSQL wire protocol, so they connect with the
 * ordinary `pg` driver. Written here rather than taken from @electric-sql/pglite-socket (which pins
 * one exact PGlite release as a peer) because that package's queue interleaves clients between
 * the messages of one extended-protocol exchange, leaves the owner's own queries free to run inside
 * a client's transaction, and hands a NOTIFY only to the client that sent it. The rules here:
 *
 * - PGlite is one backend. A client takes it from its first message until a ReadyForQuery says the
 *   backend is idle again (status 'I'): a whole Parse…Sync exchange, or a whole BEGIN…COMMIT, runs
 *   with nobody else in between. The lock is PGlite's own transaction and query mutexes, the ones
 *   its `query`/`transaction` take, so the owner's in-process queries queue behind it the same way.
 * - A client that disconnects (or stays idle in a transaction past `idleInTransactionMs`) has its
 *   exchange ended and its transaction rolled back before anyone else gets the backend.
 * - Notifications: NOTIFY in one session reaches every client that ran LISTEN on that channel and
 *   every in-process `listen`, wherever it was sent from. PGlite reports each one once, to
 *   `onNotification`, whichever session's exchange it surfaced in; from there it is handed out.
 * - Every client must give `password` (cleartext over a local socket): the socket may be TCP on
 *   127.0.0.1 where other local users could reach it.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

export type ServeAddress = { path: string } | { host: string; port: number };

export interface PgliteServer {
  address: ServeAddress;
  /** In-process LISTEN that also hears NOTIFY sent by socket clients. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface PgliteServerOptions {
  password: string;
  idleInTransactionMs?: number;
  onError?: (error: Error) => void;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

export async function servePglite(pglite: PGlite, where: ServeAddress, options: PgliteServerOptions): Promise<PgliteServer> {
  const connections = new Set<Connection>();
  const inProcess = new Map<string, Set<(payload: string) => void>>();
  const unsubscribeGlobal = pglite.onNotification((channel, payload) => {
    for (const callback of inProcess.get(channel) ?? []) callback(payload);
    for (const connection of connections) if (connection.listening.has(channel)) connection.write(notificationMessage(channel, payload));
  });
  const server: Server = createServer((socket) => {
    const connection = new Connection(socket, pglite, options);
    connections.add(connection);
    socket.on('close', () => {
      connections.delete(connection);
      connection.end();
    });
  });
  server.on('error', (error) => options.onError?.(error));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      resolve();
    };
    if ('path' in where) server.listen(where.path, ready);
    else server.listen(where.port, where.host, ready);
  });
  const bound = server.address();
  const address: ServeAddress = 'path' in where || bound === null || typeof bound === 'string' ? where : { host: bound.address, port: bound.port };
  return {
    address,
    async listen(channel, onNotify) {
      let callbacks = inProcess.get(channel);
      if (!callbacks) {
        callbacks = new Set();
        inProcess.set(channel, callbacks);
        await pglite.exec(`listen ${quoteIdentifier(channel)}`);
      }
      callbacks.add(onNotify);
      return async () => {
        callbacks.delete(onNotify);
      };
    },
    async close() {
      unsubscribeGlobal();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) connection.destroy();
      await Promise.all([...connections].map((connection) => connection.finished));
      await closed;
    },
  };
}

class Connection {
  readonly listening = new Set<string>();
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private authenticated = false;
  private pendingStartup: Uint8Array | undefined;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private ended = false;
  finished: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Socket,
    private readonly pglite: PGlite,
    private readonly options: PgliteServerOptions,
  ) {
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
  }

  write(bytes: Uint8Array): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** The socket is gone: finish what was queued, then give the backend back clean. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    this.finished = this.enqueue(async () => {
      if (!this.release) return;
      // Abandon a half-sent extended-protocol exchange, then the transaction it may have left open.
      await this.pglite.execProtocolRaw(typedMessage('S', Buffer.alloc(0)));
      if (this.pglite.isInTransaction()) await this.pglite.execProtocolRaw(typedMessage('Q', cString('rollback')));
      this.unlock();
    });
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerBytes = this.started ? 5 : 4;
      if (this.buffer.length < headerBytes) return;
      const length = this.started ? 1 + this.buffer.readInt32BE(1) : this.buffer.readInt32BE(0);
      if (length < headerBytes - 1 || length > 64 * 1024 * 1024) {
        this.socket.destroy();
        return;
      }
      if (this.buffer.length < length) return;
      const message = new Uint8Array(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
      if (!this.started) this.started = Buffer.from(message).readInt32BE(4) === PROTOCOL_3;
      void this.enqueue(() => this.handle(message));
    }
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.options.onError?.(error as Error);
      this.socket.destroy();
    });
    return this.queue;
  }

  private async handle(message: Uint8Array): Promise<void> {
    if (this.ended) return;
    const bytes = Buffer.from(message);
    if (!this.authenticated) return this.handleStartup(bytes, message);
    const type = String.fromCharCode(message[0]!);
    if (type === 'X') {
      this.socket.end();
      return;
    }
    if (type === 'Q') this.noteListen(bytes.subarray(5, bytes.length - 1).toString('utf8'));
    await this.run(message);
  }

  private async handleStartup(bytes: Buffer, message: Uint8Array): Promise<void> {
    if (this.pendingStartup === undefined) {
      const code = bytes.readInt32BE(4);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        this.write(Buffer.from('N'));
        return;
      }
      if (code === CANCEL_REQUEST || code !== PROTOCOL_3) {
        this.socket.destroy();
        return;
      }
      this.pendingStartup = message;
      // AuthenticationCleartextPassword.
      this.write(typedMessage('R', int32(3)));
      return;
    }
    const given = bytes[0] === 'p'.charCodeAt(0) ? bytes.subarray(5, bytes.length - 1).toString('utf8') : undefined;
    if (given !== this.options.password) {
      this.write(errorMessage('28P01', 'password authentication failed for the embedded cronform database'));
      this.socket.end();
      return;
    }
    this.authenticated = true;
    await this.run(this.pendingStartup);
  }

  /** One message with the backend held; the hold ends when the backend reports itself idle. */
  private async run(message: Uint8Array): Promise<void> {
    await this.lock();
    const { forward, status } = withoutNotifications(await this.pglite.execProtocolRaw(message));
    this.write(forward);
    clearTimeout(this.idleTimer);
    if (status === 'I') {
      this.unlock();
    } else if (this.options.idleInTransactionMs) {
      // Like PostgreSQL's idle_in_transaction_session_timeout: a stuck client must not hold everyone.
      this.idleTimer = setTimeout(() => this.socket.destroy(), this.options.idleInTransactionMs);
      this.idleTimer.unref();
    }
  }

  private async lock(): Promise<void> {
    if (this.release) return;
    await new Promise<void>((entered) => {
      const held = new Promise<void>((resolve) => {
        this.release = resolve;
      });
      void this.pglite._runExclusiveTransaction(() =>
        this.pglite.runExclusive(async () => {
          entered();
          await held;
        }),
      );
    });
  }

  private unlock(): void {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  private noteListen(text: string): void {
    const match = /^\s*(un)?listen\s+("((?:[^"]|"")+)"|([A-Za-z_][\w$]*)|\*)\s*;?\s*$/i.exec(text);
    if (!match) return;
    const channel = match[3]?.replaceAll('""', '"') ?? match[4]?.toLowerCase();
    if (match[1]) {
      if (channel === undefined) this.listening.clear();
      else this.listening.delete(channel);
    } else if (channel !== undefined) {
      this.listening.add(channel);
    }
  }
}

/**
 * The backend's answer without its NotificationResponses (PGlite reports those to `onNotification`,
 * which hands them to every listening session, this one included), and its last ReadyForQuery status.
 */
export function withoutNotifications(output: Uint8Array): { forward: Uint8Array; status: string | undefined } {
  const bytes = Buffer.from(output.buffer, output.byteOffset, output.byteLength);
  const kept: Buffer[] = [];
  let status: string | undefined;
  let dropped = false;
  for (let offset = 0; offset + 5 <= bytes.length; ) {
    const type = String.fromCharCode(bytes[offset]!);
    const end = offset + 1 + bytes.readInt32BE(offset + 1);
    if (type === 'Z') status = String.fromCharCode(bytes[offset + 5]!);
    if (type === 'A') dropped = true;
    else kept.push(bytes.subarray(offset, end));
    offset = end;
  }
  return { forward: dropped ? Buffer.concat(kept) : output, status };
}

function typedMessage(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

const int32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};
const cString = (text: string) => Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);

function notificationMessage(channel: string, payload: string): Buffer {
  return typedMessage('A', Buffer.concat([int32(process.pid), cString(channel), cString(payload)]));
}

function errorMessage(code: string, message: string): Buffer {
  return typedMessage('E', Buffer.concat([Buffer.from('S'), cString('FATAL'), Buffer.from('C'), cString(code), Buffer.from('M'), cString(message), Buffer.from([0])]));
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
