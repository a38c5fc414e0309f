/**
 * `plan --against-ref`: the manifests as they are at a git ref, for CI that cannot reach the
 * production database (fork pull requests have no secrets). Read with `git ls-tree`/`git show`,
 * never by checking anything out.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { ManifestSource } from '../manifest/load.js';
import { MAX_FILE_BYTES } from '../manifest/limits.js';

export class GitRefError extends Error {}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new GitRefError(`git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

export function loadSourcesAtRef(ref: string, dir: string, cwd: string): ManifestSource[] {
  // A value starting with "-" would be read by git as an option (e.g. --output=…), never a ref.
  if (ref.startsWith('-') || /[\0\n]/.test(ref)) throw new GitRefError(`not a git ref: ${JSON.stringify(ref)}`);
  const top = git(['rev-parse', '--show-toplevel'], cwd).trim();
  const prefix = path.relative(top, path.resolve(cwd, dir)).split(path.sep).join('/');
  git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd);
  const listing = git(['ls-tree', '-r', '-l', '--full-tree', ref, '--', prefix || '.'], top);
  const sources: ManifestSource[] = [];
  for (const line of listing.split('\n')) {
    const match = /^\d+ blob [0-9a-f]+\s+(\d+)\t(.+)$/.exec(line);
    if (!match || !/\.ya?ml$/i.test(match[2]!)) continue;
    const [, size, file] = match;
    if (Number(size) > MAX_FILE_BYTES) continue;
    const text = git(['show', `${ref}:${file}`], top);
    sources.push({ file: path.relative(cwd, path.join(top, file!)).split(path.sep).join('/'), text });
  }
  return sources;
}
