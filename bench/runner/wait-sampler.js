/**
 * Samples what a database's client backends are doing (pg_stat_activity) every `intervalMs` from a
 * connection of its own: the share of backend time spent waiting on a lock (e.g. the claim's
 * advisory lock), on CPU inside a statement, or idle waiting for the client (the worker process
 * or the machine's scheduler), by statement kind. A sampler, not a trace: short waits are seen in
 * proportion to how often they happen.
 */
import { connect } from './databases.js';

/** The statement a backend runs (or ran last, when idle), by its first characters. */
function classifyQuery(query) {
  if (query.startsWith('select pg_advisory_xact_lock')) return 'claim lock';
  if (query.startsWith('with paused as')) return 'claim';
  if (query.startsWith('with input as')) return 'outcome/start';
  return 'other';
}

/** What one backend was doing at one sample: its state and wait event, or `cpu` when active with none. */
function classifySample(row) {
  const wait = row.wait_event_type === null ? 'cpu' : `${row.wait_event_type}:${row.wait_event}`;
  return `${row.state} · ${wait} · ${classifyQuery(row.query ?? '')}`;
}

/** Starts sampling; `stop()` returns { samples, backendSamples, counts (by key), advisoryWaitSamples, advisoryWaiting }. */
export async function startWaitSampler(url, { excludedPids = [], intervalMs = 10 } = {}) {
  const client = await connect(url);
  const { rows } = await client.query('select pg_backend_pid() as pid');
  const excluded = [...excludedPids, Number(rows[0].pid)];
  const result = { samples: 0, backendSamples: 0, counts: new Map(), advisoryWaitSamples: 0, advisoryWaiting: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows: backends } = await client.query(
        `select state, wait_event_type, wait_event, left(query, 40) as query from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> all($1::int[])`,
        [excluded],
      );
      result.samples += 1;
      let waiting = 0;
      for (const row of backends) {
        result.backendSamples += 1;
        const key = classifySample(row);
        result.counts.set(key, (result.counts.get(key) ?? 0) + 1);
        if (row.wait_event_type === 'Lock' && row.wait_event === 'advisory') waiting += 1;
      }
      if (waiting > 0) result.advisoryWaitSamples += 1;
      result.advisoryWaiting += waiting;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      await client.end();
      return result;
    },
  };
}

/**
 * Lines that say where the backends' time went, as the average number of backends in each state
 * (so 0.30 = one backend 30 % of the run), largest first; plain idle connections left out.
 */
export function describeWaits(result, { top = 8 } = {}) {
  if (result.samples === 0) return ['no samples'];
  const average = (count) => (count / result.samples).toFixed(2);
  const lines = [`${result.samples} samples; a claimer waited on the advisory lock in ${((100 * result.advisoryWaitSamples) / result.samples).toFixed(1)} % of them; backends on average:`];
  const busy = [...result.counts].filter(([key]) => !key.startsWith('idle ·')).sort((a, b) => b[1] - a[1]);
  const total = busy.reduce((sum, [, count]) => sum + count, 0);
  lines.push(`${average(total).padStart(5)}  not idle, of which:`);
  for (const [key, count] of busy.slice(0, top)) lines.push(`${average(count).padStart(5)}  ${key}`);
  return lines;
}
