/**
 * A loopback HTTP server offering each request to `handlers` in order, as the runner's server
 * does (src/http/http-handler.ts), 404 when none answers: for tests of one handler without the
 * runner's server around it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandler } from '../../src/http/http-handler.js';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function serveHandlers(handlers: HttpHandler[]): Promise<TestServer> {
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
      for (const handler of handlers) if (await handler(request, response, url)) return;
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
