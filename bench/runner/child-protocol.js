/**
 * The tiny IPC protocol between the benchmark and its worker processes: a child prepares (imports,
 * connects) and says `ready`; on `go` it starts working; on `stop` it shuts down gracefully, sends
 * `stopped` with whatever it measured, and exits. Preparation is thus never counted as work.
 */
import { fork } from 'node:child_process';

/** In a child: wire the protocol to `start()` and `stop() → data`. */
export function serveChild({ start, stop }) {
  let stopping = false;
  // The benchmark died (or was killed): never outlive it.
  process.on('disconnect', () => process.exit(1));
  process.on('message', async (message) => {
    try {
      if (message?.type === 'go') await start();
      if (message?.type === 'stop' && !stopping) {
        stopping = true;
        const data = await stop();
        process.send({ type: 'stopped', data }, () => process.exit(0));
      }
    } catch (error) {
      process.send({ type: 'error', message: error.stack ?? String(error) }, () => process.exit(1));
    }
  });
  process.send({ type: 'ready' });
}

/** In the benchmark: fork `script`, resolve once it is ready. */
export function startChild(script, args, { env = process.env } = {}) {
  const child = fork(script, args, { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters = new Map();
  let failure;
  child.on('message', (message) => {
    if (message?.type === 'error') failure = new Error(`${script} failed: ${message.message}`);
    const waiter = waiters.get(message?.type);
    if (waiter) {
      waiters.delete(message.type);
      waiter(message);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (type) =>
    Promise.race([
      new Promise((resolve) => waiters.set(type, resolve)),
      exited.then((code) => {
        throw failure ?? new Error(`${script} exited with code ${code} before '${type}'`);
      }),
    ]);
  const ready = waitFor('ready');
  return ready.then(() => ({
    pid: child.pid,
    go: () => child.send({ type: 'go' }),
    /** Graceful stop; resolves with the child's data (or kills it after `timeoutMs`). */
    stop: async (timeoutMs = 30_000) => {
      const stopped = waitFor('stopped');
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      try {
        const message = await stopped;
        await exited;
        return message.data;
      } finally {
        clearTimeout(timer);
      }
    },
    kill: () => child.kill('SIGKILL'),
  }));
}
