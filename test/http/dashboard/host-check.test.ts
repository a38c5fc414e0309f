import { describe, expect, it } from 'vitest';
import { AllowedHostsError, isAllowedHost, parseAllowedHosts } from '../../../src/http/dashboard/host-check.js';

describe('isAllowedHost', () => {
  it.each([
    ['127.0.0.1:9464', true],
    ['10.1.2.3', true],
    ['[::1]:9464', true],
    ['[fe80::1]', true],
    ['localhost:9464', true],
    ['LocalHost.', true],
    ['cronform.internal:9464', true],
    ['evil.example:9464', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.evil.example', false],
    ['cronform.internal.evil.example', false],
    ['[evil.example]:1', false],
    ['[::1', false],
    ['localhost:9464:1', false],
    ['', false],
    [undefined, false],
  ])('Host %s → %s', (header, allowed) => {
    expect(isAllowedHost(header, ['cronform.internal'])).toBe(allowed);
  });
});

describe('parseAllowedHosts', () => {
  it('lower-cases, trims and drops a trailing dot and repeats', () => {
    expect(parseAllowedHosts(' Cronform.Internal., runner-1 ,cronform.internal')).toEqual(['cronform.internal', 'runner-1']);
    expect(parseAllowedHosts(undefined)).toEqual([]);
  });

  it.each(['cronform.internal:9464', 'https://cronform.internal', '*.internal', '', 'a,,b', '-bad.example'])('refuses %j with how to write it', (value) => {
    expect(() => parseAllowedHosts(value)).toThrow(AllowedHostsError);
    expect(() => parseAllowedHosts(value)).toThrow(/--http-allowed-hosts: ".*" is not a host name \(give names such as/);
  });
});
