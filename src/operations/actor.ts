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

export function resolveAuthor(flags: { actor?: string | undefined; reason?: string | undefined; gitSha?: string | undefined }, env: NodeJS.ProcessEnv, cwd: string): ChangeAuthor {
  const actor = flags.actor ?? env.GITHUB_ACTOR ?? env.GITLAB_USER_LOGIN ?? env.BUILDKITE_BUILD_CREATOR ?? git(['config', 'user.email'], cwd) ?? env.USER ?? 'unknown';
  const gitSha = flags.gitSha ?? env.GITHUB_SHA ?? env.CI_COMMIT_SHA ?? env.BUILDKITE_COMMIT ?? git(['rev-parse', 'HEAD'], cwd);
  return { actor, reason: flags.reason ?? null, gitSha };
}
