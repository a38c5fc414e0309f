/**
 * What `cronform status` loads before it runs (issue 18: every command within 4× node's bare start,
 * bench/cli-start). Timing is measured by the benchmark; this pins the module graph that made it
 * fast: the eager imports (what Node loads before the first line runs, type-only imports elided as
 * the compiler does) of the status command, followed through src/.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The specifiers a file imports eagerly once compiled: static imports and re-exports, not `import()`. */
function eagerSpecifiers(file: string): string[] {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, fileName: file });
  const source = ts.createSourceFile(file, outputText, ts.ScriptTarget.ES2022);
  return source.statements.flatMap((statement) => ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : []));
}

/** Every src file (relative to the repo) and package loaded eagerly from `entry`. */
function eagerGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const relative = path.relative(repoRoot, file);
    if (files.has(relative)) return;
    files.add(relative);
    for (const specifier of eagerSpecifiers(file)) {
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
        expect(existsSync(target), `${relative} imports ${specifier}`).toBe(true);
        visit(target);
      } else if (!specifier.startsWith('node:')) {
        packages.add(specifier);
      }
    }
  };
  visit(path.join(repoRoot, entry));
  return { files, packages };
}

describe('cronform status on PostgreSQL loads only what it uses', () => {
  const { files, packages } = eagerGraph('src/commands/status.ts');

  it('follows the graph at all (a probe that finds nothing proves nothing)', () => {
    expect(files).toContain('src/operations/database.ts');
    expect(files).toContain('src/db/run-report-queries.ts');
    expect(packages).toContain('@oclif/core');
  });

  it('does not load the embedded database (PGlite, its server and lock) before it knows the engine', () => {
    for (const file of ['src/operations/embedded-database.ts', 'src/operations/embedded-lock.ts', 'src/db/pglite-server.ts']) expect(files).not.toContain(file);
    expect([...packages].filter((name) => name.includes('pglite'))).toEqual([]);
  });

  it("does not load every table's definition (schema.ts) to read the Policy", () => {
    expect(files).not.toContain('src/db/schema.ts');
  });

  it("imports `sql` from drizzle's sql module, not its root (~100 modules), and no queue hand-off statements", () => {
    expect(packages).toContain('drizzle-orm/sql/sql');
    expect(packages).not.toContain('drizzle-orm');
    expect(files).not.toContain('src/db/queue-handoff-queries.ts');
  });

  it('does not load the runs command to print a table', () => {
    expect(files).not.toContain('src/commands/runs.ts');
  });

  it('loads pg only when it connects (loadPg), and nothing of manifests, plans or the runner', () => {
    expect(packages).not.toContain('pg');
    for (const name of ['yaml', 'ajv', 'luxon', 'croner', 'cronstrue', 'diff', 'pino', 'prom-client', 'chokidar']) expect(packages).not.toContain(name);
    expect([...files].filter((file) => /^src\/(manifest|plan|runner|http)\//.test(file))).toEqual([]);
  });
});

describe('cronform validate loads only what it uses', () => {
  const { files, packages } = eagerGraph('src/commands/validate.ts');

  it('follows the graph at all', () => {
    expect(files).toContain('src/compile/compile-sources.ts');
    expect(files).toContain('src/manifest/schema-validator.generated.ts');
    expect(packages).toContain('@oclif/core');
  });

  it('does not load luxon (a 260 kB module, ~15 ms of start-up): input templates shift dates with civil.ts', () => {
    expect(files).toContain('src/compile/input-templates.ts');
    expect(packages).not.toContain('luxon');
  });

  it("does not load ajv-formats with the generated validator: its formats come from schema-formats.ts, on first need", () => {
    expect(files).toContain('src/manifest/schema-formats.ts');
    expect(readFileSync(path.join(repoRoot, 'src/manifest/schema-validator.generated.ts'), 'utf8')).not.toContain('ajv-formats');
  });

  it('loads nothing of databases, plans or the runner', () => {
    for (const name of ['pg', 'drizzle-orm', 'ajv', 'yaml', 'diff', 'pino', 'prom-client', 'chokidar']) expect(packages).not.toContain(name);
    expect([...files].filter((file) => /^src\/(db|plan|runner|http)\//.test(file))).toEqual([]);
  });
});

describe('the database client', () => {
  it('gives drizzle no schema at runtime: nothing uses relational queries, and building them costs every command', () => {
    expect(eagerGraph('src/db/client.ts').files).not.toContain('src/db/schema.ts');
  });
});
