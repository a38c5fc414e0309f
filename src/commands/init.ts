import path from 'node:path';
import { Flags } from '@oclif/core';
import { initRepository, type InitResult } from '../operations/init-repository.js';
import { CronformCommand } from './cronform-command.js';

export default class Init extends CronformCommand {
  static override summary = 'Scaffold schedules/ (a Policy and one example) and the plan/apply GitHub workflows.';
  static override description =
    'Run it at the root of a repository that installed cronform (npm i -D cronform): the manifests get an editor modeline whose $schema points at node_modules/cronform/schema/, and the example needs no secret, so `cronform dev` shows a successful run within a minute. Existing files are left alone unless --force.';
  static override examples = ['<%= config.bin %> init', '<%= config.bin %> init --dir ops/schedules --no-workflows'];
  static override flags = {
    dir: Flags.string({ description: 'manifest directory to create', default: 'schedules' }),
    workflows: Flags.boolean({ description: 'write .github/workflows/cronform-plan.yml and cronform-apply.yml', default: true, allowNo: true }),
    force: Flags.boolean({ description: 'overwrite files that already exist' }),
  };

  async run(): Promise<InitResult> {
    const { flags } = await this.parse(Init);
    const result = initRepository({ root: process.cwd(), dir: flags.dir, force: flags.force, workflows: flags.workflows });
    for (const file of result.written) this.log(`  wrote ${file}`);
    if (result.schemaPath === null) this.log(`no installed cronform schema found above ${path.normalize(flags.dir)}: the manifests have no editor modeline (install cronform with npm i -D cronform, then rerun with --force)`);
    this.log('Next: npx cronform validate, then npx cronform dev');
    return result;
  }
}
