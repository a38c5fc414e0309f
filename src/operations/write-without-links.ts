/**
 * Writing manifests without ever following a symbolic link (`export`, `import`). A repository can
 * hold links: one planted where a manifest is about to be written would otherwise redirect the
 * write to wherever it points (a dangling link creates its target; `--force` would overwrite it).
 * New files are created with O_EXCL, which fails on any existing path, dangling links included;
 * an overwrite opens with O_NOFOLLOW, which fails on a link. Failures are values with the path and
 * the reason, for a clean error instead of a stack trace.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { RunOperationError } from './runs/run-operation-error.js';

export type PathKind = 'missing' | 'file' | 'link' | 'directory' | 'other';

/** What is at `file` itself, a link not followed. */
export function inspectPath(file: string): PathKind {
  try {
    const info = lstatSync(file);
    return info.isSymbolicLink() ? 'link' : info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file, so nothing can be at this path (the directory check says why).
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw new RunOperationError(`cannot inspect ${file} (${code ?? (error as Error).message})`);
  }
}

export type WriteOutcome = { ok: true } | { ok: false; reason: string };

/** Creates `file` (or, with `overwrite`, replaces a regular file) without following a link at it. */
export function writeFileWithoutLinks(file: string, text: string, options: { overwrite: boolean }): WriteOutcome {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (options.overwrite ? constants.O_TRUNC : constants.O_EXCL);
  let fd: number | undefined;
  try {
    fd = openSync(file, flags, 0o644);
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeWriteError(error as NodeJS.ErrnoException) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates a directory to write into, refusing one that is a link (or lies at a link). */
export function makeOutputDirectory(directory: string): WriteOutcome {
  const kind = inspectPath(directory);
  if (kind === 'link') return { ok: false, reason: 'is a symbolic link; cronform does not write through links' };
  if (kind !== 'missing' && kind !== 'directory') return { ok: false, reason: 'exists and is not a directory' };
  try {
    mkdirSync(directory, { recursive: true });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeWriteError(error as NodeJS.ErrnoException) };
  }
}

function describeWriteError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EEXIST':
      return 'already exists (a file or a symbolic link); nothing was overwritten';
    case 'ELOOP':
      return 'is a symbolic link; cronform does not write through links';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be written (permission denied)';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOENT':
    case 'ENOTDIR':
      return 'cannot be created: its directory is missing or not a directory';
    default:
      return `cannot be written (${error.code ?? error.message})`;
  }
}
