import { Args, Command, Flags } from '@oclif/core';
import { withDatabase } from '../operations/database.js';
import { readHistory, type VersionEntry } from '../operations/history.js';
import { ExitCodes } from '../shared/exit-codes.js';
import { databaseFlags } from './database-flags.js';

export default class History extends Command {
  static override summary = 'List the versions of a schedule: who changed it, when, why, from which commit.';
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'print as JSON' }), ...databaseFlags };

  async run(): Promise<VersionEntry[]> {
    const { args, flags } = await this.parse(History);
    const versions = await withDatabase({ databaseUrl: flags['database-url'], cwd: process.cwd() }, (database) => readHistory(database, args.name));
    if (versions.length === 0) this.error(`no schedule named ${JSON.stringify(args.name)}`, { exit: ExitCodes.ERROR });
    if (flags.json) {
      this.log(JSON.stringify(versions, null, 2));
    } else {
      for (const v of versions) {
        const name = v.name === args.name ? '' : ` (as ${v.name})`;
        this.log(`v${v.version}  ${v.createdAt}  ${v.status.padEnd(8)}  ${v.actor}${name}${v.gitSha ? `  ${v.gitSha.slice(0, 12)}` : ''}${v.planId ? `  ${v.planId}` : ''}${v.reason ? `\n      ${v.reason}` : ''}`);
      }
    }
    return versions;
  }
}
