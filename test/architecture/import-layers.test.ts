/**
 * Imports point inward (import-layers.js). Two independent checks of one table: the eslint rule
 * built from it must still reject a wrong-way import (so it cannot silently stop matching), and
 * every import in src/, resolved as a path, must stay within the folders its own folder may use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_IMPORTS, forbiddenImportsOf, LAYERS } from '../../import-layers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const srcRoot = path.join(repoRoot, 'src');

/** The restricted-import messages eslint gives `code` as if it were the file `file` (relative to the repo). */
let lintImports: (file: string, code: string) => Promise<string[]>;

beforeAll(() => {
  const eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: path.join(repoRoot, 'eslint.config.js') });
  lintImports = async (file, code) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
    // Any other message would mean the probe itself is wrong, not the import.
    expect(result!.messages.filter((m) => m.ruleId !== 'no-restricted-imports')).toEqual([]);
    return result!.messages.map((m) => m.message);
  };
});

describe('the import-layers lint rule', () => {
  it.each([
    { file: 'src/db/probe.ts', code: "import { calendarForDefinition } from '../plan/figures.js';\nexport const probe = calendarForDefinition;\n" },
    { file: 'src/db/probe.ts', code: "import type { PlannedSlot } from '../runner/run-types.js';\nexport type Probe = PlannedSlot;\n" },
    { file: 'src/db/probe.ts', code: "export { PRIORITY_RANK } from '../runner/run-types.js';\n" },
    { file: 'src/runner/policy/probe.ts', code: "import { computeFigures } from '../../plan/figures.js';\nexport const probe = computeFigures;\n" },
    { file: 'src/runner/probe.ts', code: "import type { Plan } from '../plan/plan-types.js';\nexport type Probe = Plan;\n" },
    { file: 'src/plan/probe.ts', code: "import type { Executor } from '../db/client.js';\nexport type Probe = Executor;\n" },
    { file: 'src/time/probe.ts', code: "import type { Definition } from '../compile/definition.js';\nexport type Probe = Definition;\n" },
    { file: 'src/shared/probe.ts', code: "import { MS_PER_DAY } from '../time/civil.js';\nexport const probe = MS_PER_DAY;\n" },
    { file: 'src/compile/probe.ts', code: "import type { Plan } from '../plan/plan-types.js';\nexport type Probe = Plan;\n" },
    { file: 'src/import/probe.ts', code: "import type { Plan } from '../plan/plan-types.js';\nexport type Probe = Plan;\n" },
    { file: 'src/github/probe.ts', code: "import type { Executor } from '../db/client.js';\nexport type Probe = Executor;\n" },
    { file: 'src/operations/runs/probe.ts', code: "import type { Probe } from '../../commands/probe.js';\nexport type { Probe };\n" },
  ])('rejects $code in $file', async ({ file, code }) => {
    const messages = await lintImports(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('imports point inward');
  });

  it.each([
    { file: 'src/runner/probe.ts', code: "import type { Executor } from '../db/client.js';\nexport type Probe = Executor;\n" },
    { file: 'src/runner/policy/probe.ts', code: "import type { RunStatus } from '../../db/run-vocabulary.js';\nimport { countSlotsBetween } from '../../time/timing-cache.js';\nexport type Probe = RunStatus;\nexport const probe = countSlotsBetween;\n" },
    { file: 'src/plan/probe.ts', code: "import type { StoredSchedule } from '../compile/stored-schedule.js';\nexport type Probe = StoredSchedule;\n" },
    { file: 'src/github/probe.ts', code: "import type { Plan } from '../plan/plan-types.js';\nexport type Probe = Plan;\n" },
    { file: 'src/commands/probe.ts', code: "import type { Plan } from '../plan/plan-types.js';\nimport type { Probe } from '../operations/probe.js';\nexport type { Plan, Probe };\n" },
    { file: 'src/db/probe.ts', code: "import type { Executor } from './client.js';\nexport type Probe = Executor;\n" },
    { file: 'src/time/probe.ts', code: "import type { Clock } from '../shared/clock.js';\nexport type Probe = Clock;\n" },
  ])('accepts $code in $file', async ({ file, code }) => {
    expect(await lintImports(file, code)).toEqual([]);
  });

  it('follows the table for every pair of folders', async () => {
    const wrong: string[] = [];
    for (const layer of LAYERS) {
      for (const other of LAYERS.filter((candidate) => candidate !== layer)) {
        const messages = await lintImports(`src/${layer}/probe.ts`, `import type { Probe } from '../${other}/probe.js';\nexport type { Probe };\n`);
        const allowed = ALLOWED_IMPORTS[layer]!.includes(other);
        if (allowed !== (messages.length === 0)) wrong.push(`${layer} -> ${other}: ${allowed ? 'rejected' : 'accepted'}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the layer table', () => {
  it('has a row for every folder of src/', () => {
    const folders = readdirSync(srcRoot, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect([...LAYERS].sort()).toEqual(folders.sort());
  });

  it('never lets two folders import each other', () => {
    const mutual = LAYERS.flatMap((layer) => ALLOWED_IMPORTS[layer]!.filter((other) => ALLOWED_IMPORTS[other]!.includes(layer)).map((other) => `${layer} <-> ${other}`));
    expect(mutual).toEqual([]);
  });
});

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [full] : [];
  });
}

describe('the imports of src/', () => {
  it('point inward: no file imports a folder its own folder may not use', () => {
    const wrongWay: string[] = [];
    for (const file of sourceFiles(srcRoot)) {
      const layer = path.relative(srcRoot, file).split(path.sep)[0]!;
      const forbidden = new Set(forbiddenImportsOf(layer));
      // Static, type-only, re-export, side-effect and dynamic imports, and `import('…')` types.
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      for (const { fileName: specifier } of importedFiles) {
        if (!specifier.startsWith('.')) continue;
        const target = path.relative(srcRoot, path.resolve(path.dirname(file), specifier)).split(path.sep)[0]!;
        if (forbidden.has(target)) wrongWay.push(`${path.relative(repoRoot, file)} imports ${specifier}`);
      }
    }
    expect(wrongWay).toEqual([]);
  });
});
