import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { RunContext } from '../../../src/runner/run-types.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
export const jobsDir = `${repoRoot}/test/fixtures/jobs`;

export const context: RunContext = {
  runId: 42,
  schedule: 'daily-report',
  scheduledFor: '2026-03-08T10:30:00.000Z',
  businessDate: '2026-03-07',
  idempotencyKey: 'daily-report:2026-03-08T10:30:00.000Z:SCHEDULED',
  attempt: 2,
  trigger: 'SCHEDULED',
  payload: { project: 'platform', tags: ['a', 'b'] },
};

/** The runner's environment: plumbing, secrets jobs may ask for, and a secret they must not see. */
export const runnerEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: '/home/cronform',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  NOTION_TOKEN: 'notion-secret-value',
  DATABASE_URL: 'postgres://runner:runner-password@db/cronform',
  HTTPS_PROXY: 'http://user:proxy-password@proxy:3128',
};

/**
 * A killed process is dead when kill(pid, 0) says it does not exist, or when it is a zombie: an
 * orphaned grandchild is reparented to PID 1, and a container's PID 1 that does not reap orphans
 * (this sandbox's, Docker's without --init) leaves it as a zombie, which is dead but still has a pid.
 */
export function isProcessDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 with an ephemeral port; every request is recorded before `respond`. */
export async function startServer(respond: (request: RecordedRequest, response: ServerResponse) => void): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      respond(recorded, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves with the JSON body of the first request: how a job tells the test it is ready. */
export async function startNotifyServer<T>(): Promise<TestServer & { first: Promise<T> }> {
  let resolveFirst!: (value: T) => void;
  const first = new Promise<T>((resolve) => (resolveFirst = resolve));
  const server = await startServer((request, response) => {
    response.writeHead(204).end();
    resolveFirst(JSON.parse(request.body) as T);
  });
  return { ...server, first };
}
