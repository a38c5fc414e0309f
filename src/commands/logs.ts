import { Args, Flags } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { readRunLogs, type RunLogs } from '../operations/runs/show-run.js';
import { makeVisibleLines } from '../shared/visible-text.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

/**
 * The stored output tails of one attempt, as `docker logs` prints a container's: the stdout tail to
 * stdout and the stderr tail to stderr, unlabelled, so `cronform logs 42 2>/dev/null | grep …` and
 * redirections work. An http job's response body is its stdout tail. Piped, the bytes are written
 * as stored; on a terminal, control characters are shown as escapes (`\e`, `\r`) unless --raw:
 * a job's output must not be able to drive the operator's terminal.
 */
export default class Logs extends CronformCommand {
  static override summary = "Print a run's stored output tails: stdout to stdout, stderr to stderr (latest attempt unless --attempt).";
  static override examples = ['<%= config.bin %> logs 42', '<%= config.bin %> logs 42 --attempt 1 2>&1 | less', '<%= config.bin %> logs 42 --step load'];
  static override args = { runId: Args.integer({ description: 'run id (see cronform runs)', required: true, min: 1 }) };
  static override flags = {
    attempt: Flags.integer({ description: 'attempt number (default: the latest)', min: 1 }),
    step: Flags.string({ description: "a workflow step's output instead of the attempt's (default: its latest run)" }),
    raw: Flags.boolean({ description: 'write control characters as they are, even on a terminal', default: false }),
    ...databaseFlags,
  };

  async run(): Promise<RunLogs> {
    const { args, flags } = await this.parse(Logs);
    const logs = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => readRunLogs(database, args.runId, flags.attempt, flags.step));
    if (this.jsonEnabled()) return logs;
    writeTail(process.stdout, logs.stdoutTail, flags.raw);
    writeTail(process.stderr, logs.stderrTail, flags.raw);
    return logs;
  }
}

function writeTail(stream: NodeJS.WriteStream, tail: string | null, raw: boolean): void {
  if (!tail) return;
  stream.write(raw || !stream.isTTY ? tail : makeVisibleLines(tail));
}
