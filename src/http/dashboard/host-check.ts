/**
 * DNS rebinding: a web page the operator visits can point its own name at 127.0.0.1 and then read
 * this server's answers as same-origin (the dashboard shows output tails, which may hold what a
 * job printed). The browser still sends that page's name as Host, so the dashboard answers only
 * requests addressed to an IP literal, to `localhost`, or to a name the operator listed
 * (`--http-allowed-hosts`): a name an attacker controls is never among them.
 */
import { isIP } from 'node:net';

/** A DNS name (labels of letters, digits and hyphens), without port or scheme. */
const HOST_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export class AllowedHostsError extends Error {}

/** `--http-allowed-hosts a,b`: lower-cased names; a port, scheme or wildcard is refused. */
export function parseAllowedHosts(value: string | undefined): string[] {
  if (value === undefined) return [];
  const hosts = value.split(',').map((host) => host.trim().toLowerCase().replace(/\.$/, ''));
  for (const host of hosts) {
    if (!HOST_NAME.test(host)) {
      throw new AllowedHostsError(`--http-allowed-hosts: "${host}" is not a host name (give names such as cronform.internal,runner-1, comma-separated, without port or scheme; IP addresses and localhost are always accepted)`);
    }
  }
  return [...new Set(hosts)];
}

/** The host of a Host header, lower-cased, without its port or trailing dot; undefined when malformed. */
function hostOf(header: string): string | undefined {
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(header);
  if (bracketed) return isIP(bracketed[1]!) === 6 ? bracketed[1]!.toLowerCase() : undefined;
  const match = /^([^:[\]]+)(?::\d{1,5})?$/.exec(header);
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : undefined;
}

/** Whether a request with this Host header may be answered; a request without one may not. */
export function isAllowedHost(header: string | undefined, allowedHosts: readonly string[]): boolean {
  if (header === undefined) return false;
  const host = hostOf(header.trim());
  if (host === undefined) return false;
  return isIP(host) !== 0 || host === 'localhost' || allowedHosts.includes(host);
}
