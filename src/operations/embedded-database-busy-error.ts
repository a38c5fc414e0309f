/** Kept free of database code: every command loads the exit-code mapping that names it. */

export interface EmbeddedHolder {
  pid: number;
  /** The holder's start time and boot (Linux): a reused pid is not the holder (embedded-lock.ts). */
  startTicks?: string;
  bootId?: string;
  /** e.g. `cronform dev`. */
  command: string;
  startedAt: string;
  /** Present while the holder serves the database to other cronform processes. */
  serving?: { address: { path: string } | { host: string; port: number }; password: string };
}

/** Someone else has the embedded database and will not share it with this command. */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: EmbeddedHolder,
    reason: string,
  ) {
    super(`the embedded database ${dataDir} is ${reason} \`${holder.command}\` (pid ${holder.pid}, since ${holder.startedAt}). Stop that process or wait for it to finish; if pid ${holder.pid} is not a cronform process any more, delete ${dataDir}.lock.`);
  }
}
