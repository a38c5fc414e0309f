/**
 * The runner processes of the chaos suite: `cronform runner` started from bin/run.js, each in a
 * numbered seat that is refilled after a kill. Every exit is recorded with whether the suite
 * caused it, so an exit nobody asked for (a crash, an unhandled rejection) fails a verdict.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync } from 'node:fs';
import path from 'node:path';

export class Fleet {
  constructor({ cli, databaseUrl, workDir, logDir, runnerArgs, now = Date.now }) {
    this.cli = cli;
    this.databaseUrl = databaseUrl;
    this.workDir = workDir;
    this.logDir = logDir;
    this.runnerArgs = runnerArgs;
    this.now = now;
    /** Every process ever started: { seat, pid, startedMs, signal, signalledMs, exitedMs, code, exitSignal }. */
    this.processes = [];
    this.seats = [];
  }

  start(seat) {
    const logFile = path.join(this.logDir, `runner-${seat}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(process.execPath, [this.cli, 'runner', '--database-url', this.databaseUrl, '--base-dir', this.workDir, ...this.runnerArgs], {
      stdio: ['ignore', fd, fd],
      env: { ...process.env, CRONFORM_LOG_LEVEL: 'info' },
    });
    closeSync(fd);
    const logBytes = () => statSync(logFile).size;
    const record = { seat, pid: child.pid, startedMs: this.now(), signal: null, signalledMs: null, exitedMs: null, code: null, exitSignal: null, logFile, logBytesAtStart: logBytes(), logBytesAtExit: null };
    record.exited = new Promise((resolve) => {
      child.once('exit', (code, exitSignal) => {
        Object.assign(record, { exitedMs: this.now(), code, exitSignal, logBytesAtExit: logBytes() });
        resolve(record);
      });
    });
    this.processes.push(record);
    this.seats[seat] = { child, record };
    return record;
  }

  alive() {
    return this.seats.map((entry, seat) => ({ ...entry, seat })).filter((entry) => entry && entry.record.exitedMs === null && entry.record.signal === null);
  }

  /** Sends `signal` to the runner in `seat`; resolves when it has exited (SIGKILL once `timeoutMs` passed). */
  async stop(seat, signal, timeoutMs = 60_000) {
    const { child, record } = this.seats[seat];
    if (record.exitedMs !== null) return record;
    record.signal = signal;
    record.signalledMs = this.now();
    record.final = this.finalStop === true;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await record.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Exits the suite did not cause, and SIGTERMs that did not end in a clean exit. Except a
   * process that died of the SIGTERM itself having written nothing: Node was still starting (up
   * to a second or more on a loaded machine), before any code could listen for the signal;
   * `bin/run.js` listens from its first line (src/shared/shutdown-signal.ts).
   */
  unexpectedExits() {
    return this.processes.filter((p) => p.exitedMs !== null && (p.signal === null || (p.signal === 'SIGTERM' && p.code !== 0 && !this.#diedStarting(p))));
  }

  /** SIGTERMed processes that died of it before they had started (see unexpectedExits). */
  killedStarting() {
    return this.processes.filter((p) => p.signal === 'SIGTERM' && this.#diedStarting(p));
  }

  #diedStarting(p) {
    return p.exitSignal === 'SIGTERM' && p.logBytesAtExit === p.logBytesAtStart;
  }

  async stopAll(signal, timeoutMs) {
    await Promise.all(this.seats.map((_, seat) => this.stop(seat, signal, timeoutMs)));
  }
}
