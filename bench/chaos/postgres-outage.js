/**
 * A real database outage: the local PostgreSQL cluster is stopped and started again with
 * pg_ctlcluster (Debian/Ubuntu packaging; the suite must run as root or postgres). Opt-in
 * (`--outage`): every other client of the server sees the outage too.
 *
 * The cluster is never left stopped: the start runs in `finally`, is retried, and the suite also
 * starts it from its exit and signal handlers (see `ensureClusterStarted`).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

function pgCtlCluster(cluster, action, extra = []) {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, action, ...extra], { stdio: 'pipe', timeout: 60_000 });
}

/** The single cluster listed under /etc/postgresql, or the one named by --outage-cluster 15/main. */
export function findCluster(spec) {
  if (spec) {
    const [version, name] = spec.split('/');
    return { version, name };
  }
  const versions = readdirSync('/etc/postgresql');
  const clusters = versions.flatMap((version) => readdirSync(`/etc/postgresql/${version}`).map((name) => ({ version, name })));
  if (clusters.length !== 1) throw new Error(`--outage needs exactly one cluster under /etc/postgresql (found ${clusters.length}); name it with --outage-cluster VERSION/NAME`);
  return clusters[0];
}

export function isClusterOnline(cluster) {
  try {
    const out = execFileSync('pg_lsclusters', ['--no-header', cluster.version, cluster.name], { encoding: 'utf8', timeout: 10_000 });
    return /\bonline\b/.test(out);
  } catch {
    return false;
  }
}

export function ensureClusterStarted(cluster) {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    if (isClusterOnline(cluster)) return true;
    try {
      pgCtlCluster(cluster, 'start');
    } catch (error) {
      if (attempt === 5) console.error(`could not start PostgreSQL ${cluster.version}/${cluster.name}: ${error.message}`);
    }
  }
  return isClusterOnline(cluster);
}

/**
 * Stops the cluster (fast: clients are disconnected at once), waits `downMs`, starts it again.
 * Returns the instants the suite needs; always restarts, whatever happened in between.
 */
export async function runOutage(cluster, downMs, sleep, now) {
  const window = { stopRequestedMs: now(), downMs: null, upMs: null };
  let started = false;
  try {
    pgCtlCluster(cluster, 'stop', ['-m', 'fast']);
    window.downMs = now();
    await sleep(downMs);
  } finally {
    started = ensureClusterStarted(cluster);
    window.upMs = now();
  }
  if (!started) throw new Error(`PostgreSQL ${cluster.version}/${cluster.name} did not come back: start it by hand (pg_ctlcluster ${cluster.version} ${cluster.name} start)`);
  return window;
}
