/**
 * Use case: `cronform import --from crontab <file>`: read a crontab, convert and compile-check it
 * (pure, `src/import`), then write one manifest per schedule. Nothing is written while any line
 * failed, unless asked to (`allowPartial`): a half-imported crontab is easy to miss in review.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { convertCrontab, type ImportedSchedule } from '../import/convert-crontab.js';
import { ImportCodes } from '../import/import-codes.js';
import { renderImportedManifest, renderImportedStream } from '../import/render-imported-yaml.js';
import { verifyImportedSchedules } from '../import/verify-imported.js';
import { MAX_FILE_BYTES } from '../manifest/limits.js';
import { loadManifestSources } from '../manifest/load.js';
import { parseManifestSource } from '../manifest/parse.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from '../shared/diagnostics.js';
import { RunOperationError } from './runs/run-operation-error.js';
import { inspectPath, makeOutputDirectory, writeFileWithoutLinks } from './write-without-links.js';

export interface ImportCrontabOptions {
  file: string;
  cwd: string;
  nowMs: number;
  /** Where manifests are written. */
  outDir: string;
  /** Manifest directory whose schedule names must not be reused. */
  manifestDir: string;
  timezone?: string | undefined;
  systemFormat: boolean;
  /** Print the manifests as one YAML stream instead of writing files. */
  toStdout: boolean;
  allowPartial: boolean;
}

export interface ImportCrontabResult {
  schedules: ImportedSchedule[];
  diagnostics: Diagnostic[];
  /** Files written, relative to cwd. */
  written: string[];
  /** The manifests as one YAML stream, when `toStdout`. */
  stream: string | null;
}

const SCHEMA_FILE = path.join('schema', 'cronform.schema.json');

export async function importCrontab(options: ImportCrontabOptions): Promise<ImportCrontabResult> {
  const empty = (diagnostic: Diagnostic): ImportCrontabResult => ({ schedules: [], diagnostics: [diagnostic], written: [], stream: null });
  const text = readCrontab(path.resolve(options.cwd, options.file));
  if (typeof text !== 'string') return empty({ severity: 'error', code: DiagnosticCodes.PATH_NOT_FOUND, message: text.message, file: options.file });

  const takenNames = await listScheduleNames(options.manifestDir, options.cwd);
  const converted = convertCrontab(text, { file: options.file, timezone: options.timezone, systemFormat: options.systemFormat, takenNames });
  const verified = verifyImportedSchedules(converted.schedules, { file: options.file, nowMs: options.nowMs });
  const diagnostics = [...converted.diagnostics, ...verified.diagnostics];
  const outDir = path.resolve(options.cwd, options.outDir);
  const schemaPath = findSchemaPath(options.cwd, outDir);

  if (options.toStdout) {
    return { schedules: verified.schedules, diagnostics: sortDiagnostics(diagnostics), written: [], stream: renderImportedStream(verified.schedules, { schemaPath }) };
  }
  const targets = verified.schedules.map((schedule) => ({ schedule, file: path.join(outDir, `${schedule.manifest.metadata.name}.yaml`) }));
  const fileExists = (schedule: ImportedSchedule, file: string, reason: string): Diagnostic => ({
    severity: 'error',
    code: ImportCodes.FILE_EXISTS,
    message: `${path.relative(options.cwd, file)} ${reason}`,
    hint: 'choose another --out-dir, or move the existing file',
    file: options.file,
    line: schedule.line,
    column: 1,
  });
  // A dangling symbolic link counts as existing: writing "through" it would create its target.
  for (const { schedule, file } of targets) {
    const kind = inspectPath(file);
    if (kind === 'link') diagnostics.push(fileExists(schedule, file, 'is a symbolic link; nothing was written through it'));
    else if (kind !== 'missing') diagnostics.push(fileExists(schedule, file, 'already exists; nothing was overwritten'));
  }
  const written: string[] = [];
  if (!hasErrors(diagnostics) || options.allowPartial) {
    const directory = makeOutputDirectory(outDir);
    if (!directory.ok) throw new RunOperationError(`${path.relative(options.cwd, outDir) || '.'} ${directory.reason}`);
    for (const { schedule, file } of targets) {
      if (inspectPath(file) !== 'missing') continue;
      // Created exclusively and without following links: never replaces what appeared since the check above.
      const outcome = writeFileWithoutLinks(file, renderImportedManifest(schedule, { schemaPath }), { overwrite: false });
      if (outcome.ok) written.push(path.relative(options.cwd, file));
      else diagnostics.push(fileExists(schedule, file, outcome.reason));
    }
  }
  return { schedules: verified.schedules, diagnostics: sortDiagnostics(diagnostics), written, stream: null };
}

function readCrontab(file: string): string | Error {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return new Error(`${file} is larger than ${MAX_FILE_BYTES} bytes: not a crontab`);
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return new Error(code === 'ENOENT' ? `crontab not found: ${file}` : `cannot read ${file} (${code ?? (error as Error).message})`);
  }
}

/** Names of the schedules already in the repository (parse only: a broken manifest still owns its name). */
async function listScheduleNames(manifestDir: string, cwd: string): Promise<string[]> {
  if (!existsSync(path.resolve(cwd, manifestDir))) return [];
  const loaded = await loadManifestSources([manifestDir], { cwd });
  return loaded.sources.flatMap((source) =>
    parseManifestSource(source).documents.map((doc) => (doc.value as { metadata?: { name?: unknown } }).metadata?.name).filter((name): name is string => typeof name === 'string'),
  );
}

/** The editor modeline's target, when the manifests land inside the repository that ships the schema. */
function findSchemaPath(cwd: string, outDir: string): string | undefined {
  const schema = path.join(cwd, SCHEMA_FILE);
  const insideRepository = !path.relative(cwd, outDir).startsWith('..') && !path.isAbsolute(path.relative(cwd, outDir));
  return insideRepository && existsSync(schema) ? path.relative(outDir, schema).split(path.sep).join('/') : undefined;
}
