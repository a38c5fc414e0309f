import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/manifest/limits.js';
import { loadManifestSources } from '../../src/manifest/load.js';
import { repoRoot } from './check-manifests.js';

let root: string;

/** Creates files (and their directories) under the temporary root. */
function writeTree(files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(root, name);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cronform-load-'));
  writeTree({
    'tree/b.yaml': 'b: 1\n',
    'tree/a.yml': 'a: 1\n',
    'tree/README.md': '# not a manifest\n',
    'tree/sub/c.yaml': 'c: 1\n',
    'tree/Z.yaml': 'z: 1\n',
    'tree/.hidden/h.yaml': 'h: 1\n',
    'tree/.draft.yaml': 'd: 1\n',
    'tree/node_modules/pkg/n.yaml': 'n: 1\n',
    'empty/notes.txt': 'nothing here\n',
    'binary.yaml': Buffer.from('kind: Schedule\nspec: \u0000\u0001\u0002\n'),
    'latin1.yaml': Buffer.from([0x6b, 0x3a, 0x20, 0xe9, 0x0a]),
    'big.yaml': Buffer.alloc(MAX_FILE_BYTES + 1, 0x61),
    'exact.yaml': Buffer.alloc(MAX_FILE_BYTES, 0x61),
    'bom.yaml': '\uFEFFa: 1\n',
  });
  symlinkSync(path.join(root, 'tree/sub'), path.join(root, 'tree/link-to-sub'));
  symlinkSync(path.join(root, 'tree/b.yaml'), path.join(root, 'tree/link.yaml'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('loadManifestSources', () => {
  it('walks directories depth-first in code-point order, skipping hidden dirs, node_modules and other files', async () => {
    const result = await loadManifestSources(['tree'], { cwd: root });
    // Linked files are followed, linked directories are not (a link cycle would never end).
    expect(result.sources.map((s) => s.file)).toEqual(['tree/Z.yaml', 'tree/a.yml', 'tree/b.yaml', 'tree/link.yaml', 'tree/sub/c.yaml']);
    expect(result.sources[0]?.text).toBe('z: 1\n');
    expect(result).toMatchObject({ diagnostics: [], fileCount: 5 });
  });

  it('reads a file named explicitly once, even when its directory is named too', async () => {
    const result = await loadManifestSources(['tree/sub/c.yaml', 'tree/sub', 'empty/notes.txt'], { cwd: root });
    expect(result.sources.map((s) => s.file)).toEqual(['tree/sub/c.yaml', 'empty/notes.txt']);
  });

  it('shows paths outside cwd as absolute, with forward slashes', async () => {
    const result = await loadManifestSources([path.join(root, 'tree/sub')], { cwd: path.join(root, 'empty') });
    expect(result.sources.map((s) => s.file)).toEqual([path.join(root, 'tree/sub/c.yaml').split(path.sep).join('/')]);
  });

  it('CF001: a path that does not exist', async () => {
    const result = await loadManifestSources(['does/not/exist', 'tree/sub'], { cwd: root });
    expect(result.diagnostics).toEqual([
      { severity: 'error', code: 'CF001', message: 'path not found: does/not/exist', file: 'does/not/exist' },
    ]);
    expect(result.fileCount).toBe(1);
  });

  it('CF002: a file over 1 MiB is refused from its size; exactly 1 MiB is read', async () => {
    const result = await loadManifestSources(['big.yaml', 'exact.yaml'], { cwd: root });
    expect(result.diagnostics).toEqual([
      { severity: 'error', code: 'CF002', message: 'file is 1048577 bytes; manifests are limited to 1 MiB (1048576 bytes)', file: 'big.yaml' },
    ]);
    expect(result.diagnostics[0]?.line).toBeUndefined();
    expect(result.sources.map((s) => [s.file, s.text.length])).toEqual([['exact.yaml', MAX_FILE_BYTES]]);
    expect(result.fileCount).toBe(2);
  });

  it('CF003: binary and non-UTF-8 content is a diagnostic, not a crash', async () => {
    const result = await loadManifestSources(['binary.yaml', 'latin1.yaml'], { cwd: root });
    expect(result.sources).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message])).toEqual([
      ['CF003', 'binary.yaml', 2, 7, 'file is binary (contains a NUL byte), not a YAML manifest'],
      ['CF003', 'latin1.yaml', 1, 5, 'file is not valid UTF-8 text'],
    ]);
  });

  it('drops a UTF-8 byte order mark', async () => {
    const result = await loadManifestSources(['bom.yaml'], { cwd: root });
    expect(result.sources).toEqual([{ file: 'bom.yaml', text: 'a: 1\n' }]);
  });

  it('CF009: no manifest in the directories given', async () => {
    const result = await loadManifestSources(['empty'], { cwd: root });
    expect(result).toEqual({
      sources: [],
      fileCount: 0,
      diagnostics: [
        {
          severity: 'error',
          code: 'CF009',
          file: 'empty',
          message: 'no manifests found in empty',
          hint: 'manifests are *.yaml or *.yml files; hidden files and directories and node_modules are skipped',
        },
      ],
    });
  });

  it('does not add CF009 when every path was missing', async () => {
    const result = await loadManifestSources(['nope'], { cwd: root });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['CF001']);
  });

  it("loads this repository's schedules/", async () => {
    const result = await loadManifestSources(['schedules'], { cwd: repoRoot });
    expect(result.diagnostics).toEqual([]);
    expect(result.sources.map((s) => s.file)).toContain('schedules/daily-report.yaml');
  });
});
