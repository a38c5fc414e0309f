/**
 * schema-formats.ts gives the generated validator ajv-formats' `date` and `uri`, with a small
 * expression in front of the URI one (start-up, bench/cli-start). These pin that every answer is
 * still ajv-formats' own, and that the usual URLs are the ones the small expression takes.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_URI, date, uri } from '../../src/manifest/schema-formats.js';
import { runOptions } from '../hostile/run-options.js';

const ajvFormats = (createRequire(import.meta.url)('ajv-formats/dist/formats') as { fullFormats: { uri(text: string): boolean; date: { validate(text: string): boolean } } }).fullFormats;

const URLS = [
  'https://api.example.com/healthz',
  'https://api.example.com/v1/sync',
  'http://localhost:8080/hooks/cronform?token=x#top',
  'https://hooks.slack.com/services/T000/B000/XXXX',
  'HTTPS://EXAMPLE.COM/%7Euser/a%2Fb',
  'http://10.0.0.1:/',
  'ftp://a',
  'x-scheme+1.2://h',
];
const OTHER_URIS = [
  'https://user:secret@example.com/',
  'http://[::1]:8080/',
  'http://[2001:db8::7]/c=GB?objectClass?one',
  'http://[v7.fe80::a+en1]/',
  'http://[::ffff:192.0.2.1]/',
  'mailto:someone@example.com',
  'urn:isbn:0451450523',
  'http:/example.com',
  'file:/etc/hosts',
  'news:comp.infosystems.www.servers.unix',
  'http://a:b:c/',
];
const NOT_URIS = ['', 'example.com', '/relative/path', '//example.com', 'http://exa mple.com', 'http://example.com/%zz', 'http://[::1', 'https://ex<ample>.com', '1http://a', 'http://a/b c', 'http://é.com', 'https://a.com#frag#ment'];

describe('uri', () => {
  it('answers as ajv-formats on chosen URIs, URLs with user info or IP literals and non-URIs', () => {
    for (const text of [...URLS, ...OTHER_URIS, ...NOT_URIS]) expect(uri(text), text).toBe(ajvFormats.uri(text));
    expect(OTHER_URIS.every((text) => ajvFormats.uri(text))).toBe(true);
    expect(NOT_URIS.some((text) => ajvFormats.uri(text))).toBe(false);
  });

  it('takes the usual URLs without ajv-formats', () => {
    for (const text of URLS) expect(COMMON_URI.test(text), text).toBe(true);
    for (const text of [...OTHER_URIS, ...NOT_URIS]) expect(COMMON_URI.test(text), text).toBe(false);
  });

  it('accepts nothing that ajv-formats refuses: strings made to match the small expression (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(COMMON_URI), (text) => {
        expect(ajvFormats.uri(text)).toBe(true);
      }),
      runOptions(2000),
    );
  });

  it('answers as ajv-formats on web URLs and on URI-like strings (property)', () => {
    const uriCharacter = fc.constantFrom(...'aZ09:/?#[]@!$&\'()*+,;=-._~%fF vé"<>\\'.split(''));
    const uriLike = fc.tuple(fc.constantFrom('', 'http://', 'https://', 'a:', 'x+y-z.w://', '//', 'http://[', 'http://u@'), fc.string({ unit: uriCharacter, maxLength: 40 })).map(([prefix, rest]) => prefix + rest);
    const webUrl = fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withIPv4: true, withIPv6: true, withUserInfo: true, withPort: true } });
    fc.assert(
      fc.property(fc.oneof(uriLike, webUrl), (text) => {
        expect(uri(text)).toBe(ajvFormats.uri(text));
      }),
      runOptions(5000),
    );
  });
});

describe('date', () => {
  it('answers as ajv-formats', () => {
    const dateLike = fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
    fc.assert(
      fc.property(fc.oneof(dateLike, fc.string({ maxLength: 12 })), (text) => {
        expect(date.validate(text)).toBe(ajvFormats.date.validate(text));
      }),
      runOptions(2000),
    );
    for (const text of ['2024-02-29', '2023-02-29', '2026-13-01', '2026-1-01', '2026-01-01T00:00:00Z']) expect(date.validate(text), text).toBe(ajvFormats.date.validate(text));
  });
});
