import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One part of the runner's HTTP server (`runner --http ADDR`, `dev --http ADDR`): metrics, health,
 * the dashboard. The server offers each request to its handlers in order; a handler answers the
 * request and returns true, or leaves it untouched and returns false (the server then answers 404).
 * `url` is the request's URL already parsed against the server's own origin.
 */
export type HttpHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;
