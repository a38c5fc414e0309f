import type { ServerResponse } from 'node:http';

/** A small answer with its length, no caching (probes and scrapes want the value of now). */
export function sendText(response: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  sendText(response, status, 'application/json; charset=utf-8', `${JSON.stringify(value)}\n`);
}

/** 405 for a known path asked with a method it does not answer; `allowed` goes in the Allow header. */
export function sendMethodNotAllowed(response: ServerResponse, allowed: readonly string[]): void {
  sendText(response, 405, 'text/plain; charset=utf-8', `method not allowed; use ${allowed.join(' or ')}\n`, { allow: allowed.join(', ') });
}

/** Whether a read-only path's request uses GET or HEAD; answers 405 and returns false otherwise. */
export function acceptReadOnly(response: ServerResponse): boolean {
  const method = response.req.method;
  if (method === 'GET' || method === 'HEAD') return true;
  sendMethodNotAllowed(response, ['GET', 'HEAD']);
  return false;
}
