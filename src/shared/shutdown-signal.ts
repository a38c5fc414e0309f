/**
 * The first SIGTERM or SIGINT asks for a graceful stop; a second one exits at once (130).
 * A long-running command listens as early as it can: a signal that arrives before it listens
 * kills the process with Node's default action (no drain, no exit 0), and starting a command
 * (loading oclif and the command's modules) can take seconds on a loaded machine. So `bin/run.js`
 * calls `listenForShutdownSignal()` before it loads anything else for `runner` and `dev`, and the
 * command's `waitForShutdownSignal()` then resolves at once for a signal caught meanwhile.
 */
let first: Promise<NodeJS.Signals> | undefined;

export function listenForShutdownSignal(): Promise<NodeJS.Signals> {
  first ??= new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
      process.once('SIGTERM', () => process.exit(130));
      process.once('SIGINT', () => process.exit(130));
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  return first;
}

/** Resolves on the first SIGTERM or SIGINT (also one caught before this call, see above). */
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return listenForShutdownSignal();
}
