/**
 * Who and why, for audit rows (SPEC §6): flags first, then the CI environment, then git.
 */
import { execFileSync } from 'node:child_process';

export interface ChangeAuthor {
  actor: string;
  reason: string | null;
  gitSha: string | null;
}

function git(args: string[], cwd: string): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** Marks a commit whose manifests were not what was applied: `<sha>-dirty`, as `git describe --dirty`. */
export const DIRTY_SUFFIX = '-dirty';

/**
 * `manifestDir`: the directory an apply read its manifests from. When the sha comes from the local
 * checkout (no flag, no CI variable) and that directory has uncommitted changes or untracked
 * files, HEAD is not what was applied, and the sha is recorded as `<sha>-dirty`. A CI sha is the
 * checkout CI made, and a saved plan file or a pause names no manifests: both record the sha as is.
 */
export function resolveAuthor(
  flags: { actor?: string | undefined; reason?: string | undefined; gitSha?: string | undefined },
  env: NodeJS.ProcessEnv,
  cwd: string,
  manifestDir?: string,
): ChangeAuthor {
  const actor = flags.actor ?? env.GITHUB_ACTOR ?? env.GITLAB_USER_LOGIN ?? env.BUILDKITE_BUILD_CREATOR ?? git(['config', 'user.email'], cwd) ?? env.USER ?? 'unknown';
  const ciSha = flags.gitSha ?? env.GITHUB_SHA ?? env.CI_COMMIT_SHA ?? env.BUILDKITE_COMMIT;
  return { actor, reason: flags.reason ?? null, gitSha: ciSha ?? localSha(cwd, manifestDir) };
}

function localSha(cwd: string, manifestDir: string | undefined): string | null {
  const head = git(['rev-parse', 'HEAD'], cwd);
  if (head === null || manifestDir === undefined) return head;
  // `--` and a path: git reads the directory as a pathspec, never as an option or a revision.
  const changes = git(['status', '--porcelain', '--untracked-files=all', '--', manifestDir], cwd);
  return changes === null ? head : `${head}${DIRTY_SUFFIX}`;
}
