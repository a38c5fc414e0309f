/**
 * The files a workflow's steps exchange results through (docs/workflows.md): one directory per
 * attempt in the process's private directory (job-files.ts), holding `results/<name>.json` for every
 * earlier step that wrote a result (CRONFORM_STEPS_DIR) and the file the running step may write
 * (CRONFORM_STEP_OUTPUT, outside that directory so a step cannot stand in for an earlier one).
 * The database keeps the results; these files are rewritten from them before each step.
 */
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inJobFilesDirectory } from './job-files.js';
import type { Prepared } from './placeholders.js';

/** A result larger than this fails its step: results are small data for later steps, not payloads. */
export const MAX_STEP_RESULT_BYTES = 64 * 1024;

export interface StepFiles {
  stepsDir: string;
  outputFileOf(stepName: string): string;
  /** Writes the earlier steps' results and removes a stale output file of `stepName`. */
  prepare(stepName: string, results: Readonly<Record<string, Record<string, unknown>>>): Promise<void>;
  /** The JSON object the step wrote, null when it wrote nothing, or why it is unusable. */
  readOutput(stepName: string): Promise<Prepared<Record<string, unknown> | null>>;
  remove(): Promise<void>;
}

export async function createStepFiles(runId: number, attempt: number): Promise<StepFiles> {
  // 0700 by mkdtemp, in a 0700 directory: other users of the machine cannot read or plant results.
  const root = await inJobFilesDirectory((directory) => mkdtemp(path.join(directory, `steps-${runId}-${attempt}-`)));
  const stepsDir = path.join(root, 'results');
  const outputDir = path.join(root, 'output');
  await mkdir(stepsDir);
  await mkdir(outputDir);
  const outputFileOf = (stepName: string) => path.join(outputDir, `${stepName}.json`);
  return {
    stepsDir,
    outputFileOf,
    async prepare(stepName, results) {
      for (const [name, result] of Object.entries(results)) await writeFile(path.join(stepsDir, `${name}.json`), JSON.stringify(result));
      await rm(outputFileOf(stepName), { force: true });
    },
    readOutput: (stepName) => readResult(outputFileOf(stepName)),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Reads at most one byte past the limit, so a step writing gigabytes costs nothing to refuse. */
async function readResult(file: string): Promise<Prepared<Record<string, unknown> | null>> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: null };
    return { ok: false, error: `could not read the step's result (CRONFORM_STEP_OUTPUT): ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}` };
  }
  try {
    const buffer = Buffer.alloc(MAX_STEP_RESULT_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_STEP_RESULT_BYTES) return { ok: false, error: `the step's result (CRONFORM_STEP_OUTPUT) is larger than ${MAX_STEP_RESULT_BYTES / 1024} KiB` };
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    if (text.trim() === '') return { ok: true, value: null };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, error: "the step's result (CRONFORM_STEP_OUTPUT) is not valid JSON" };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: "the step's result (CRONFORM_STEP_OUTPUT) must be a JSON object, e.g. {\"rows\": 42}" };
    if (!isStorable(value)) return { ok: false, error: "the step's result (CRONFORM_STEP_OUTPUT) contains a NUL character or a lone surrogate, which the database cannot store" };
    return { ok: true, value: value as Record<string, unknown> };
  } finally {
    await handle.close();
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** PostgreSQL's jsonb refuses \u0000 and unpaired surrogates: such a result fails its step instead of the write. */
function isStorable(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value) && !value.includes('\0');
  if (Array.isArray(value)) return value.every(isStorable);
  if (value !== null && typeof value === 'object') return Object.entries(value).every(([key, item]) => isStorable(key) && isStorable(item));
  return true;
}
