/**
 * The only file of `src/manifest` that touches the disk: it finds manifest files and reads their text.
 * Everything after this (parse, validate, compile) is a pure function of the returned sources.
 *
 * Reads are synchronous on purpose: for 10,000 small files, open/fstat/read/close costs ~65 ms done
 * synchronously and ~200 ms as promises with 32 in flight (four thread-pool round trips per file), and
 * the CLI has nothing else to do meanwhile. The API stays async so that can change without callers.
 */
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, realpathSync, statSync } from 'node:fs';
import type { Dirent, Stats } from 'node:fs';
import path from 'node:path';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { MAX_FILE_BYTES } from './limits.js';
import type { ManifestSource } from './parse.js';

export type { ManifestSource } from './parse.js';

export interface LoadResult {
  sources: ManifestSource[];
  diagnostics: Diagnostic[];
  /** Manifest files found, including those rejected (too large, binary). */
  fileCount: number;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml']);

type ReadOutcome = { source: ManifestSource } | { diagnostic: Diagnostic };

/**
 * Loads manifests from files and directories (walked recursively, sorted, `*.yaml`/`*.yml` only,
 * hidden files and directories and node_modules skipped). Files named explicitly are read whatever their
 * extension. Problems are diagnostics, never exceptions.
 *
 * Files stay in their manifest root (a directory given, or the directory of a file given): a
 * symbolic link is followed only when it resolves inside that root, and not into a place the walk
 * itself skips (a hidden directory such as `.git`, node_modules). A pull request can add links, and
 * a link to `.git/config` would otherwise put the checkout token into a plan comment through a YAML
 * error quoting the "manifest". A root inside the working directory must itself resolve inside it
 * on the same terms (a `schedules` link to `/etc` is refused). A refused file is a CF017 error at
 * its line 1 that names the link and nothing of its target, which is never opened.
 */
export async function loadManifestSources(paths: string[], options: { cwd: string }): Promise<LoadResult> {
  return loadManifestSourcesSync(paths, options);
}

function loadManifestSourcesSync(paths: string[], options: { cwd: string }): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  const displayPath = createDisplayPath(options.cwd);
  const refuseLink = (absolute: string, root: string): void => {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.LINK_OUTSIDE_ROOT,
      message: `${displayPath(absolute)} is a symbolic link (or lies under one) that leads outside ${displayPath(root)}: not read`,
      hint: 'manifests must be files inside the manifest directory: replace the link with the file itself',
      file: displayPath(absolute),
      line: 1,
      column: 1,
    });
  };
  const realCwd = realpathOrNull(path.resolve(options.cwd));
  let existingPaths = 0;
  for (const given of paths) {
    const absolute = path.resolve(options.cwd, given);
    const info = statOrError(absolute);
    if (info instanceof Error) {
      diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.PATH_NOT_FOUND,
        message: info.code === 'ENOENT' ? `path not found: ${given}` : `cannot read ${given} (${info.code ?? info.message})`,
        file: displayPath(absolute),
      });
      continue;
    }
    existingPaths += 1;
    const root = info.isDirectory() ? absolute : path.dirname(absolute);
    const realRoot = realpathOrNull(root);
    // The root itself, when it is in the working directory, must not lead out of it.
    const rootInsideCwd = realCwd !== null && isLexicallyInside(path.resolve(options.cwd), root);
    if (realRoot === null || (rootInsideCwd && !staysInside(path.resolve(options.cwd), realCwd, root, realRoot))) {
      refuseLink(absolute, rootInsideCwd ? path.resolve(options.cwd) : root);
      continue;
    }
    if (!info.isDirectory()) {
      if (staysInside(root, realRoot, absolute, realpathOrNull(absolute))) files.push(absolute);
      else refuseLink(absolute, root);
      continue;
    }
    const walked = listManifestFiles(absolute);
    for (const link of walked.links) if (!staysInside(root, realRoot, link, realpathOrNull(link))) refuseLink(link, root);
    for (const file of walked.files) {
      if (staysInside(root, realRoot, file, realpathOrNull(file))) files.push(file);
      else refuseLink(file, root);
    }
  }
  // The same file named twice (a directory and a file inside it) is loaded once.
  const unique = [...new Set(files)];
  // When every path was missing or a refused link, CF001 or CF017 already says so; "no manifests"
  // would only repeat it.
  const refusedLinks = diagnostics.some((d) => d.code === DiagnosticCodes.LINK_OUTSIDE_ROOT);
  if (unique.length === 0 && existingPaths > 0 && !refusedLinks) {
    diagnostics.push({
      severity: 'error',
      code: DiagnosticCodes.NO_MANIFESTS,
      file: paths.map((p) => displayPath(path.resolve(options.cwd, p))).join(', '),
      message: `no manifests found in ${paths.join(', ')}`,
      hint: 'manifests are *.yaml or *.yml files; hidden files and directories and node_modules are skipped',
    });
  }
  const sources: ManifestSource[] = [];
  for (const file of unique) {
    const outcome = readManifest(file, displayPath(file));
    if ('source' in outcome) sources.push(outcome.source);
    else diagnostics.push(outcome.diagnostic);
  }
  return { sources, diagnostics, fileCount: unique.length };
}

/**
 * Depth-first, entries in code-point order, so output does not depend on the file system or locale.
 * Links to files are listed with the files (the caller checks where they lead); links to
 * directories are not walked (a link cycle would never end) but listed, so one leading out of the
 * root is reported rather than silently skipped.
 */
function listManifestFiles(directory: string, found: { files: string[]; links: string[] } = { files: [], links: [] }): { files: string[]; links: string[] } {
  const entries = readdirSync(directory, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) listManifestFiles(full, found);
    else if (entry.isSymbolicLink() && isDirectoryTarget(full)) found.links.push(full);
    else if (isManifestName(entry.name) && isFile(entry, full)) found.files.push(full);
  }
  return found;
}

function isManifestName(name: string): boolean {
  return MANIFEST_EXTENSIONS.has(path.extname(name).toLowerCase());
}

function isDirectoryTarget(link: string): boolean {
  const target = statOrError(link);
  return !(target instanceof Error) && target.isDirectory();
}

function isFile(entry: Dirent, full: string): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  const target = statOrError(full);
  return !(target instanceof Error) && target.isFile();
}

/**
 * Whether `file` (a path under `root`) is read from inside the root: without links its real path is
 * the same steps below the real root; through links, the real path must still be below the real root
 * and pass no hidden directory or node_modules, which the walk would have skipped.
 */
function staysInside(root: string, realRoot: string, file: string, realFile: string | null): boolean {
  if (realFile === null) return false;
  const lexical = path.relative(root, file);
  const real = path.relative(realRoot, realFile);
  if (real === lexical) return true;
  if (real.startsWith(`..${path.sep}`) || real === '..' || path.isAbsolute(real)) return false;
  return !real.split(path.sep).some((part) => part.startsWith('.') || part === 'node_modules');
}

function isLexicallyInside(directory: string, candidate: string): boolean {
  const relative = path.relative(directory, candidate);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

function realpathOrNull(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

function statOrError(file: string): Stats | NodeJS.ErrnoException {
  try {
    return statSync(file);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

function readManifest(absolute: string, file: string): ReadOutcome {
  const fail = (code: string, message: string, extra: Partial<Diagnostic> = {}): ReadOutcome => ({
    diagnostic: { severity: 'error', code, message, file, ...extra },
  });
  let fd: number | undefined;
  try {
    // The real path, checked above; O_NOFOLLOW keeps a link swapped in since then from being followed.
    fd = openSync(realpathSync(absolute), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    // Size first: an oversized file is refused without reading it.
    const { size } = fstatSync(fd);
    if (size > MAX_FILE_BYTES) return fail(DiagnosticCodes.FILE_TOO_LARGE, tooLargeMessage(size));
    // One byte more than the size reveals a file that grew after stat.
    const buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    while (length < buffer.length) {
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_FILE_BYTES) return fail(DiagnosticCodes.FILE_TOO_LARGE, tooLargeMessage(length));
    const bytes = buffer.subarray(0, length);
    const nul = bytes.indexOf(0);
    if (nul !== -1) {
      return fail(DiagnosticCodes.YAML_SYNTAX, 'file is binary (contains a NUL byte), not a YAML manifest', positionOf(bytes, nul));
    }
    const text = decodeUtf8(bytes);
    if (text === undefined) return fail(DiagnosticCodes.YAML_SYNTAX, 'file is not valid UTF-8 text', positionOf(bytes, findInvalidUtf8(bytes)));
    return { source: { file, text } };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return fail(DiagnosticCodes.PATH_NOT_FOUND, `cannot read file (${code})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Offset of the byte at which UTF-8 decoding fails: the shortest prefix a streaming decoder rejects
 * ends there (validity of prefixes is monotonic, so a binary search finds it); a file that only ends
 * inside a sequence fails at that sequence's first byte. Called for invalid files only.
 */
function findInvalidUtf8(bytes: Uint8Array): number {
  const prefixIsValid = (length: number) => decodeUtf8Stream(bytes.subarray(0, length));
  if (prefixIsValid(bytes.length)) {
    let start = bytes.length - 1;
    while (start > 0 && bytes.length - start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start -= 1;
    return Math.max(start, 0);
  }
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = Math.floor((valid + invalid) / 2);
    if (prefixIsValid(middle)) valid = middle;
    else invalid = middle;
  }
  return invalid - 1;
}

function decodeUtf8Stream(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function tooLargeMessage(bytes: number): string {
  return `file is ${bytes} bytes; manifests are limited to 1 MiB (${MAX_FILE_BYTES} bytes)`;
}

function positionOf(bytes: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = bytes.indexOf(10); i !== -1 && i < offset; i = bytes.indexOf(10, i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Relative to cwd with forward slashes when inside it, so output is the same on every OS. Takes
 * resolved paths (path.resolve and path.join results, as everywhere in this file).
 */
function createDisplayPath(cwd: string): (absolute: string) => string {
  const base = path.resolve(cwd);
  const prefix = base.endsWith(path.sep) ? base : `${base}${path.sep}`;
  return (absolute) => {
    // Asked for every file. On POSIX, with both sides resolved, path.relative is "." for cwd itself,
    // the rest of the path under cwd, and a ".." path (shown absolute) anywhere else: decided by the
    // prefix without resolving both paths again per file. Windows keeps path.relative (case, drives).
    if (path.sep === '/') return absolute === base ? '.' : absolute.startsWith(prefix) ? absolute.slice(prefix.length) : absolute;
    const relative = path.relative(cwd, absolute);
    const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
    const inside = relative !== '' && !outside;
    return (inside ? relative : relative === '' ? '.' : absolute).split(path.sep).join('/');
  };
}
