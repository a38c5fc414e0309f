/**
 * A pg-boss 10 process for the benchmark. `config` (JSON): `queues` to work, `workers` per queue
 * (pg-boss 10 has no teamSize: concurrency is several work() loops), `batchSize`,
 * `pollingIntervalSeconds`, and `boss` constructor options (cron check intervals). For cron jobs
 * the handler records start minus slot (see start-delay.js for how the slot is recovered).
 *
 *   node bench/runner/pg-boss-child.js <database-url> '<config json>'
 */
import PgBoss from 'pg-boss';
import { serveChild } from './child-protocol.js';

const [url, configText] = process.argv.slice(2);
const config = JSON.parse(configText);

const boss = new PgBoss({ connectionString: url, migrate: false, ...(config.boss ?? {}) });
boss.on('error', (error) => console.error(`[pg-boss] ${error.message}`));
await boss.start();

const samples = [];
const handler = async (jobs) => {
  const startMs = Date.now();
  if (config.recordCron) for (const job of jobs) samples.push({ queue: job.name, createdMs: new Date(job.createdOn).getTime(), startMs });
};

serveChild({
  start: async () => {
    const options = { batchSize: config.batchSize ?? 1, pollingIntervalSeconds: config.pollingIntervalSeconds ?? 2, includeMetadata: Boolean(config.recordCron) };
    for (const queue of config.queues) {
      for (let i = 0; i < (config.workers ?? 1); i += 1) await boss.work(queue, options, handler);
    }
  },
  stop: async () => {
    await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    return { samples };
  },
});
