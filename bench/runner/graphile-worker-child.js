/**
 * A graphile-worker 0.17 process for the benchmark. `config` (JSON) holds the pool options
 * (`concurrency`, and `preset.worker` tuning: localQueue, completeJobBatchDelay, …) and, for the
 * start-delay benchmark, `crontab`. The `noop` task records, for cron jobs, start minus slot.
 *
 *   node bench/runner/graphile-worker-child.js <database-url> '<config json>'
 */
import { Logger, run } from 'graphile-worker';
import { serveChild } from './child-protocol.js';

const [url, configText] = process.argv.slice(2);
const config = JSON.parse(configText);

// Errors only: the default logger prints a line per job, which would measure the console.
const logger = new Logger(() => (level, message) => {
  if (level === 'error') console.error(`[graphile-worker] ${message}`);
});

const samples = [];
const noop = async (payload) => {
  const cronTs = payload?._cron?.ts;
  if (cronTs) samples.push({ slotMs: Date.parse(cronTs), startMs: Date.now() });
};

let runner;
serveChild({
  start: async () => {
    runner = await run({
      connectionString: url,
      concurrency: config.concurrency,
      noHandleSignals: true,
      logger,
      taskList: { noop },
      crontab: config.crontab ?? '',
      ...(config.pollInterval ? { pollInterval: config.pollInterval } : {}),
      preset: { worker: { ...(config.worker ?? {}) } },
    });
  },
  stop: async () => {
    await runner?.stop();
    return { samples };
  },
});
