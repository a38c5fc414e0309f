import { Args } from '@oclif/core';
import { DIRTY_SUFFIX } from '../operations/actor.js';
import { withDatabase } from '../operations/database.js';
import { readHistory, type VersionEntry } from '../operations/history.js';
import { makeVisible } from '../shared/visible-text.js';
import { CronformCommand } from './cronform-command.js';
import { databaseFlags } from './database-flags.js';

export default class History extends CronformCommand {
  static override summary = 'List the versions of a schedule: who changed it, when, why, from which commit.';
  static override args = { name: Args.string({ description: 'schedule name', required: true }) };
  static override flags = { ...databaseFlags };

  async run(): Promise<VersionEntry[]> {
    const { args, flags } = await this.parse(History);
    const versions = await withDatabase({ databaseUrl: flags['database-url'], dataDir: flags['data-dir'], cwd: process.cwd() }, (database) => readHistory(database, args.name));
    if (versions.length === 0) this.fail(`no schedule named ${JSON.stringify(args.name)}`);
    // Actors, reasons and names are whatever someone typed: a terminal must show them, not obey them.
    for (const v of versions) {
      const name = v.name === args.name ? '' : ` (as ${makeVisible(v.name)})`;
      const reason = v.reason ? `\n      ${v.reason.split('\n').map(makeVisible).join('\n      ')}` : '';
      this.log(`v${v.version}  ${v.createdAt}  ${v.state.padEnd(10)}  ${makeVisible(v.actor)}${name}${v.gitSha ? `  ${makeVisible(shortSha(v.gitSha))}` : ''}${v.planId ? `  ${makeVisible(v.planId)}` : ''}${reason}`);
    }
    return versions;
  }
}

/** 12 characters of the commit, keeping the `-dirty` mark of an apply from uncommitted manifests. */
function shortSha(gitSha: string): string {
  return gitSha.endsWith(DIRTY_SUFFIX) ? `${gitSha.slice(0, 12)}${DIRTY_SUFFIX}` : gitSha.slice(0, 12);
}
