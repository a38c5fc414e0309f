import { describe, expect, it } from 'vitest';
import { formatHostPort, parseListenAddress } from '../../src/http/listen-address.js';

describe('parseListenAddress (--http)', () => {
  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
    ['[::]:80', { host: '::', port: 80 }],
    [':9464', { host: '0.0.0.0', port: 9464 }],
    ['metrics.internal:65535', { host: 'metrics.internal', port: 65535 }],
  ])('%s', (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });

  it.each([
    ['9464', 'the port is missing'],
    ['localhost', 'the port is missing'],
    ['127.0.0.1:', 'port "" is not a number'],
    ['127.0.0.1:http', 'port "http" is not a number'],
    ['127.0.0.1:-1', 'port "-1" is not a number'],
    ['127.0.0.1:65536', 'port 65536 is above 65535'],
    ['::1:9464', 'an IPv6 host must be in brackets'],
    ['[localhost]:9464', '"localhost" is not an IPv6 address'],
    ['bad host:80', '"bad host" is not a host name or IPv4 address'],
    ['http://127.0.0.1:9464', 'an IPv6 host must be in brackets'],
    ['', 'the port is missing'],
  ])('%j is refused: %s', (text, why) => {
    expect(() => parseListenAddress(text)).toThrow(`--http ${JSON.stringify(text)}: ${why} (expected HOST:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464)`);
  });

  it('writes IPv6 hosts in brackets', () => {
    expect(formatHostPort('::1', 80)).toBe('[::1]:80');
    expect(formatHostPort('127.0.0.1', 80)).toBe('127.0.0.1:80');
  });
});
