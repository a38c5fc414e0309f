/**
 * Property 1 at the file level, through validateManifests (load → compile): arbitrary bytes and
 * byte-level corruptions of the examples never throw, finish in bounded time, and every diagnostic
 * names the file with a line and column — except "too large", which is refused before reading.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { validateManifests, type ValidateResult } from '../../src/operations/validate.js';
import { exampleSources } from './hostile-texts.js';
import { expectLocated } from './located-diagnostics.js';
import { HOSTILE_NOW_MS, MAX_COMPILE_MS, runOptions } from './run-options.js';
import { runBoundedAsync } from './watchdog.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-hostile-load-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FILE = 'hostile.yaml';

async function validateBytes(bytes: Uint8Array): Promise<ValidateResult> {
  writeFileSync(path.join(scratch, FILE), bytes);
  return runBoundedAsync(Buffer.from(bytes).toString('latin1'), MAX_COMPILE_MS, () => validateManifests([FILE], { cwd: scratch, nowMs: HOSTILE_NOW_MS }));
}

const exampleBytes = exampleSources.map((source) => Buffer.from(source.text));

/** An example with bytes overwritten, inserted or cut at random offsets. */
const corruptedExample = fc
  .tuple(fc.constantFrom(...exampleBytes), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'cut')), { minLength: 1, maxLength: 8 }))
  .map(([original, edits]) => {
    let bytes = Buffer.from(original);
    for (const [position, value, kind] of edits) {
      const at = position % (bytes.length + 1);
      if (kind === 'set' && at < bytes.length) bytes[at] = value;
      else if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([value]), bytes.subarray(at)]);
      else bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + (value % 5))]);
    }
    return new Uint8Array(bytes);
  });

describe('property 1 on files: arbitrary bytes through validate', () => {
  it('random bytes and corrupted examples: bounded, no throw, located diagnostics', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 2_000 }), corruptedExample), async (bytes) => {
        const result = await validateBytes(bytes);
        expectLocated(result.diagnostics, [FILE]);
        expect(result.fileCount).toBe(1);
      }),
      runOptions(300),
    );
  });

  it.each([
    { name: 'a NUL byte on line 3', bytes: Buffer.concat([Buffer.from('apiVersion: cronform/v1\nkind: Schedule\nmeta'), Buffer.from([0]), Buffer.from('data: {}\n')]), line: 3, column: 5 },
    { name: 'an invalid UTF-8 byte on line 2', bytes: Buffer.concat([Buffer.from('apiVersion: cronform/v1\nkind: Sch'), Buffer.from([0xff]), Buffer.from('edule\n')]), line: 2, column: 10 },
    { name: 'a truncated UTF-8 sequence on line 2', bytes: Buffer.concat([Buffer.from('apiVersion: cronform/v1\nkind: "'), Buffer.from([0xe2, 0x82]), Buffer.from('"\n')]), line: 2, column: 10 },
    { name: 'a file ending inside a UTF-8 sequence', bytes: Buffer.concat([Buffer.from('a: b\nc: '), Buffer.from([0xf0, 0x9f, 0x98])]), line: 2, column: 4 },
    { name: 'an overlong encoding of "/"', bytes: Buffer.concat([Buffer.from('a: '), Buffer.from([0xc0, 0xaf])]), line: 1, column: 4 },
    { name: 'UTF-16 with a byte order mark', bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: b\n', 'utf16le')]), line: 1, column: 4 },
  ])('$name: CF003 at $line:$column', async ({ bytes, line, column }) => {
    const result = await validateBytes(bytes);
    expect(result.diagnostics).toMatchObject([{ code: 'CF003', file: FILE, line, column }]);
  });

  it('a UTF-8 byte order mark is not a problem', async () => {
    const result = await validateBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), exampleBytes[0]!]));
    expect(result.diagnostics).toEqual([]);
  });

  it('a file over 1 MiB is refused before it is read: CF002 naming the file', async () => {
    const result = await validateBytes(Buffer.alloc(1024 * 1024 + 1, 0x61));
    expect(result.diagnostics).toMatchObject([{ code: 'CF002', file: FILE }]);
  });
});
