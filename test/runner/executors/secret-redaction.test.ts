import { describe, expect, it } from 'vitest';
import type { JobDefinition } from '../../../src/compile/definition.js';
import { OutputTail } from '../../../src/runner/executors/output-tail.js';
import { createJobRedactor, SecretRedactor } from '../../../src/runner/executors/secret-redaction.js';

const TOKEN = 'tok-7Hq2xZ9pLw';
const redactor = new SecretRedactor([{ name: 'API_TOKEN', value: TOKEN }]);

function tailOf(capacityBytes: number, chunks: string[], secrets = redactor): string {
  const tail = new OutputTail(capacityBytes, secrets);
  for (const chunk of chunks) tail.write(Buffer.from(chunk));
  return tail.toText();
}

/** Every way of cutting `text` into two chunks. */
function splits(text: string): Array<[string, string]> {
  return Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);
}

describe('SecretRedactor.redactText', () => {
  it.each([
    ['as is', `token=${TOKEN}!`, 'token=[redacted:API_TOKEN]!'],
    ['twice', `${TOKEN}${TOKEN}`, '[redacted:API_TOKEN]'],
  ])('%s', (_what, text, expected) => {
    expect(redactor.redactText(text)).toBe(expected);
  });

  it('redacts the forms a value is echoed in: trimmed, after an auth scheme, JSON-escaped, percent-encoded', () => {
    const secrets = new SecretRedactor([
      { name: 'FILE_SECRET', value: 'from-a-file\n' },
      { name: 'AUTH', value: 'Bearer abc.def/ghi' },
      { name: 'QUOTED', value: 'pa"ss\\word' },
      { name: 'SPACED', value: 'p@ss w&rd' },
    ]);
    expect(secrets.redactText('x from-a-file y')).toBe('x [redacted:FILE_SECRET] y');
    expect(secrets.redactText('got Bearer abc.def/ghi and abc.def/ghi')).toBe('got [redacted:AUTH] and [redacted:AUTH]');
    expect(secrets.redactText(JSON.stringify({ v: 'pa"ss\\word' }))).toBe('{"v":"[redacted:QUOTED]"}');
    expect(secrets.redactText(`?q=${encodeURIComponent('p@ss w&rd')}`)).toBe('?q=[redacted:SPACED]');
  });

  it('merges overlapping secrets, so no part of the second one is left', () => {
    const secrets = new SecretRedactor([{ name: 'A', value: 'xyz1234' }, { name: 'B', value: '123456789' }]);
    expect(secrets.redactText('<xyz123456789>')).toBe('<[redacted:A,B]>');
  });

  it('leaves values under four characters alone: redacting them would destroy the output', () => {
    const secrets = new SecretRedactor([{ name: 'SHORT', value: 'abc' }, { name: 'BLANK', value: '  ab \n' }]);
    expect(secrets.isEmpty).toBe(true);
    expect(secrets.redactText('abc ab')).toBe('abc ab');
    expect(new SecretRedactor([{ name: 'FOUR', value: 'abcd' }]).redactText('xabcdx')).toBe('x[redacted:FOUR]x');
  });
});

describe('createJobRedactor', () => {
  const env = { API_TOKEN: TOKEN, UNUSED_SECRET: 'never-referenced', MODE_VALUE: 'literal-mode' };

  it('takes the fromEnv values of a command job env and of an http job headers, and nothing else', () => {
    const command: JobDefinition = { type: 'command', command: ['x'], cwd: '.', env: { TOKEN: { fromEnv: 'API_TOKEN' }, MODE: 'literal-mode', GONE: { fromEnv: 'MISSING' } } };
    const http: JobDefinition = { type: 'http', url: 'https://example.com', method: 'POST', headers: { Authorization: { fromEnv: 'API_TOKEN' } }, expectStatus: [[200, 299]] };
    for (const job of [command, http]) {
      expect(createJobRedactor(job, env).redactText(`${TOKEN} never-referenced literal-mode`)).toBe('[redacted:API_TOKEN] never-referenced literal-mode');
    }
  });
});

describe('OutputTail with secrets', () => {
  it('redacts a secret split across chunks, at every split point', () => {
    for (const [first, second] of splits(`before ${TOKEN} after`)) {
      expect(tailOf(1024, [first, second])).toBe('before [redacted:API_TOKEN] after');
    }
  });

  it('never lets part of a secret straddling the window start open the tail', () => {
    // The window is the last 10 bytes; the secret ends at every position in and around it.
    for (let after = 0; after <= 12; after++) {
      const text = tailOf(10, ['0123456789', TOKEN, 'a'.repeat(after)]);
      for (let length = 2; length <= TOKEN.length; length++) {
        for (let from = 0; from + length <= TOKEN.length; from++) {
          if (length >= 4) expect(text).not.toContain(TOKEN.slice(from, from + length));
        }
      }
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(10);
    }
  });

  it('keeps a marker whole when it overlaps the window start, and the tail within its capacity', () => {
    const shortName = new SecretRedactor([{ name: 'T', value: TOKEN }]);
    // The window (16 bytes) starts two bytes into the secret; its marker fits and is kept.
    expect(tailOf(16, ['x'.repeat(40), TOKEN, '-end'], shortName)).toBe('[redacted:T]-end');
    // The marker does not fit: it goes whole, not its last characters.
    expect(tailOf(15, ['x'.repeat(40), TOKEN, '-end'], shortName)).toBe('-end');
    // Whole in the window, but the marker is longer than the secret: the front is cut instead.
    expect(tailOf(30, ['x'.repeat(40), TOKEN, '-end'])).toBe('xxxxxx[redacted:API_TOKEN]-end');
  });

  it('redacts inside a window that has wrapped around the ring many times', () => {
    const chunks = Array.from({ length: 52 }, (_, i) => (i % 7 === 1 ? TOKEN.slice(0, 5) : i % 7 === 2 ? `${TOKEN.slice(5)} ` : `line ${i}\n`));
    const text = tailOf(64, chunks);
    expect(text).not.toContain(TOKEN.slice(5));
    expect(text).toContain('[redacted:API_TOKEN]');
  });

  it('behaves as before without secrets', () => {
    expect(tailOf(8, ['abcdef', 'ghij'], new SecretRedactor([]))).toBe('cdefghij');
  });
});
