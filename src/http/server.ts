/**
 * The runner's HTTP server (`runner --http ADDR`, `dev --http ADDR`). Each request is offered to
 * the handlers in order (HttpHandler); none answering is a 404. A handler that throws gets a 500
 * and a log line, never the process: a scrape or a probe must not be able to stop a runner.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from '../shared/logger.js';
import type { HttpHandler } from './http-handler.js';
import { formatHostPort, parseListenAddress } from './listen-address.js';
import { sendText } from './responses.js';

export interface HttpServer {
  /** The origin it listens on, e.g. http://127.0.0.1:9464 (with the real port when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

export interface HttpServerOptions {
  /** `HOST:PORT` (see listen-address.ts); a wrong value throws ListenAddressError. */
  address: string;
  handlers: readonly HttpHandler[];
  logger: Logger;
}

/** The server could not listen (port in use, address not on this host, no permission). */
export class HttpListenError extends Error {}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the port is already in use (another runner or program listens there)',
  EADDRNOTAVAIL: 'the address is not one of this host\'s',
  EACCES: 'no permission to listen there (ports below 1024 need privileges)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
};

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { host, port } = parseListenAddress(options.address);
  let origin = '';
  const server = createServer((request, response) => void answer(request, response, origin, options));
  // Probes and scrapes hold connections open; close() must not wait for them.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = LISTEN_FAILURES[error.code ?? ''] ?? error.message;
      reject(new HttpListenError(`cannot listen on ${formatHostPort(host, port)} (--http): ${why}`));
    };
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
  server.on('error', (error) => options.logger.error('http server error', { error: error.message }));
  const bound = server.address();
  const actualPort = typeof bound === 'object' && bound ? bound.port : port;
  origin = `http://${formatHostPort(host, actualPort)}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(request: IncomingMessage, response: ServerResponse, origin: string, options: HttpServerOptions): Promise<void> {
  const target = request.url ?? '';
  // Origin-form only ("/path?query"): resolving anything else against a base could change the host.
  if (!target.startsWith('/')) {
    sendText(response, 400, 'text/plain; charset=utf-8', 'bad request target\n');
    return;
  }
  let url: URL;
  try {
    url = new URL(`${origin}${target}`);
  } catch {
    sendText(response, 400, 'text/plain; charset=utf-8', 'bad request target\n');
    return;
  }
  try {
    for (const handler of options.handlers) {
      if (await handler(request, response, url)) return;
    }
    sendText(response, 404, 'text/plain; charset=utf-8', `not found: ${url.pathname}\n`);
  } catch (error) {
    options.logger.error('http handler failed', { method: request.method, path: url.pathname, error: (error as Error).message });
    if (!response.headersSent) sendText(response, 500, 'text/plain; charset=utf-8', 'internal error (see the runner log)\n');
    else response.destroy();
  }
}
