/** Installing the peers' schemas and bulk-creating their jobs, done before any worker starts. */
import { makeWorkerUtils, runMigrations } from 'graphile-worker';
import PgBoss from 'pg-boss';

export async function installGraphileWorker(url) {
  await runMigrations({ connectionString: url });
}

/** `count` no-op jobs through graphile-worker's addJobs (its add_jobs SQL), `batchSize` per call. */
export async function createGraphileWorkerJobs(url, { count, batchSize = 1000 }) {
  const utils = await makeWorkerUtils({ connectionString: url });
  try {
    const t0 = performance.now();
    for (let start = 0; start < count; start += batchSize) {
      const specs = Array.from({ length: Math.min(batchSize, count - start) }, () => ({ identifier: 'noop', payload: {} }));
      await utils.addJobs(specs);
    }
    return performance.now() - t0;
  } finally {
    await utils.release();
  }
}

/** A pg-boss instance that only manages (no maintenance, no cron): for setup from the benchmark. */
export async function openPgBossAdmin(url) {
  const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false });
  boss.on('error', (error) => console.error(`[pg-boss] ${error.message}`));
  await boss.start();
  return boss;
}

/** `count` no-op jobs through pg-boss insert(), `batchSize` per call. */
export async function createPgBossJobs(url, queue, { count, batchSize = 1000 }) {
  const boss = await openPgBossAdmin(url);
  try {
    await boss.createQueue(queue);
    const t0 = performance.now();
    for (let start = 0; start < count; start += batchSize) {
      await boss.insert(Array.from({ length: Math.min(batchSize, count - start) }, () => ({ name: queue, data: {} })));
    }
    return performance.now() - t0;
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
