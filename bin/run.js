#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1+ keeps the compiled code of every module on disk (in os.tmpdir() unless NODE_COMPILE_CACHE
// names a directory), which halves the load of oclif and the command on the next start. Node 20 has no
// such cache, so there this line does nothing.
module.enableCompileCache?.();

const args = process.argv.slice(2);

// The long-running commands stop gracefully on SIGTERM/SIGINT: listen before loading oclif and the
// command, which can take seconds on a loaded machine (src/shared/shutdown-signal.ts).
if (['runner', 'dev'].includes(args[0])) (await import('../dist/shared/shutdown-signal.js')).listenForShutdownSignal();
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// `--version` and the root help are answered without loading oclif (~100 ms of CPU, more than node's
// own start): the version line is oclif's user agent, and the help is oclif's own rendering, made at
// build time by scripts/generate-cli-help.js (80 columns, as oclif prints it into a pipe).
const userAgent = `${pjson.oclif.bin}/${pjson.version} ${process.platform}-${process.arch} node-${process.version}`;
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`${userAgent}\n`);
  process.exit(0);
}
if (args.length === 0 || (args.length === 1 && args[0] === '--help')) {
  const help = readHelp();
  if (help !== undefined) {
    process.stdout.write(help.replaceAll('{{userAgent}}', userAgent));
    process.exit(0);
  }
}

function readHelp() {
  try {
    return readFileSync(new URL('../dist/cli-help.txt', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

// Importing @oclif/core checks node against oclif's own engines with semver (47 files, ~20 ms of CPU);
// cronform's engines field is checked by npm at install. The variable is put back at once, so neither
// commands nor the jobs the runner starts see it.
const engineWarning = process.env.OCLIF_DISABLE_ENGINE_WARNING;
process.env.OCLIF_DISABLE_ENGINE_WARNING = '1';
const [{ execute }, { ExitCodes }] = await Promise.all([import('@oclif/core'), import('../dist/shared/exit-codes.js')]);
if (engineWarning === undefined) delete process.env.OCLIF_DISABLE_ENGINE_WARNING;
else process.env.OCLIF_DISABLE_ENGINE_WARNING = engineWarning;

// oclif imports its explicit command table whole before any command runs; this table
// (dist/commands/selected-table.js) holds only the command named in argv, so start-up skips the
// other commands' imports. Help, topics and unknown names get the full table (src/commands/index.ts).
const root = fileURLToPath(new URL('..', import.meta.url));
pjson.oclif.commands = { ...pjson.oclif.commands, target: './dist/commands/selected-table.js' };
// An error that names no exit code gets oclif's default, 2, which `plan --detailed-exitcode`
// reserves for "changes present". Inside a command CronformCommand.catch gives every error its
// code; this covers what fails before any command runs, such as an unknown command name.
pjson.oclif.exitCodes = { default: ExitCodes.ERROR };
await execute({ loadOptions: { root, pjson } });
