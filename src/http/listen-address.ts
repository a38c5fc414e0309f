/**
 * The `--http ADDR` value: `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (every interface). Port 0 asks
 * the system for a free port (tests). Pure: a wrong value is a message for the user, not a crash.
 */
export interface ListenAddress {
  host: string;
  port: number;
}

export class ListenAddressError extends Error {}

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/;
const IPV6 = /^[0-9A-Fa-f:.]+(?:%[A-Za-z0-9_.-]+)?$/;

export function parseListenAddress(text: string): ListenAddress {
  const fail = (why: string): never => {
    throw new ListenAddressError(`--http ${JSON.stringify(text)}: ${why} (expected HOST:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464)`);
  };
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):([^:]*)$/.exec(text);
  if (!match) return fail(text.includes(':') ? 'an IPv6 host must be in brackets' : 'the port is missing');
  const [, bracketed, plain, portText = ''] = match;
  if (!/^\d{1,5}$/.test(portText)) return fail(`port ${JSON.stringify(portText)} is not a number`);
  const port = Number(portText);
  if (port > 65_535) return fail(`port ${port} is above 65535`);
  if (bracketed !== undefined) {
    if (!IPV6.test(bracketed) || !bracketed.includes(':')) return fail(`${JSON.stringify(bracketed)} is not an IPv6 address`);
    return { host: bracketed, port };
  }
  const host = plain ?? '';
  if (host === '') return { host: '0.0.0.0', port };
  if (!HOST_NAME.test(host)) return fail(`${JSON.stringify(host)} is not a host name or IPv4 address`);
  return { host, port };
}

/** How a host:port is written in a URL. */
export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
