import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CronformCommand } from './cronform-command.js';

// The same relative path from src/commands (tests) and dist/commands (package), as schema-document.ts.
const SCHEMA_FILE = fileURLToPath(new URL('../../schema/cronform.schema.json', import.meta.url));

export default class Schema extends CronformCommand {
  static override summary = 'Print the manifest JSON Schema.';
  static override description =
    'Prints schema/cronform.schema.json exactly as shipped (JSON Schema 2020-12), for editors, SchemaStore and other tools. Point your editor at it to get completion and checks while writing manifests.';
  static override examples = ['<%= config.bin %> schema > .cronform.schema.json'];
  // The output is a JSON document already, byte for byte as shipped; --json would re-indent it.
  static override enableJsonFlag = false;

  async run(): Promise<string> {
    await this.parse(Schema);
    const text = readFileSync(SCHEMA_FILE, 'utf8');
    this.log(text.trimEnd());
    return text;
  }
}
