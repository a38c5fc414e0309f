import { describe, expect, it } from 'vitest';
import { claimUniqueName, deriveJobName } from '../../src/import/job-names.js';
import { splitShellWords } from '../../src/import/shell-words.js';

describe('splitShellWords', () => {
  it.each([
    ['/usr/bin/backup --full', ['/usr/bin/backup', '--full'], []],
    [`/bin/echo 'a  b' "c d" e\\ f`, ['/bin/echo', 'a  b', 'c d', 'e f'], []],
    [`/usr/bin/find /tmp -name '*.tmp'`, ['/usr/bin/find', '/tmp', '-name', '*.tmp'], []],
    [`/bin/echo "say \\"hi\\""`, ['/bin/echo', 'say "hi"'], []],
    ['a | b', ['a', '|', 'b'], ['a pipe (|)']],
    ['a > /dev/null 2>&1', ['a', '>', '/dev/null', '2>&1'], ['a redirection (>)']],
    ['cd /srv && ./run; ./other', ['cd', '/srv', '&&', './run;', './other'], ['an and-list (&&)', 'a command list (;)']],
    ['a || b &', ['a', '||', 'b', '&'], ['an or-list (||)', 'a background job (&)']],
    ['echo $HOME', ['echo', '$HOME'], ['a $ expansion']],
    ['echo "$HOME"', ['echo', '$HOME'], ['a $ expansion']],
    ['echo `date`', ['echo', '`date`'], ['a command substitution (`…`)']],
    ['rm /tmp/*.log', ['rm', '/tmp/*.log'], ['a glob (*)']],
    ['ls ~/x', ['ls', '~/x'], ['a home directory (~)']],
    ['FOO=1 ./job', ['FOO=1', './job'], ['a variable assignment before the command']],
    ["echo 'open", ['echo', 'open'], ['an unterminated quote']],
  ])('%s', (command, words, syntax) => {
    expect(splitShellWords(command)).toEqual({ words, shellSyntax: syntax });
  });
});

describe('deriveJobName', () => {
  it.each([
    ['/usr/local/bin/backup.sh --full', 'backup'],
    ['/usr/bin/php /var/www/artisan schedule:run', 'artisan-schedule-run'],
    ['python3 -u manage.py clearsessions', 'manage-clearsessions'],
    ['python3 -m app.jobs.sync', 'app-jobs-sync'],
    ['/usr/bin/env node scripts/report.js', 'report'],
    ['cd /srv/app && ./bin/cleanup --older-than 30d > /var/log/x 2>&1', 'cleanup'],
    ['cd /srv/app&&./bin/cleanup', 'cleanup'],
    ['nice -n 10 flock -n /tmp/lock /opt/sync', 'sync'],
    ['timeout 5m /opt/nightly', 'nightly'],
    ['java -jar /opt/etl.jar', 'etl'],
    ['>/dev/null', 'crontab-job'],
  ])('%s → %s', (command, name) => {
    expect(deriveJobName(splitShellWords(command).words)).toBe(name);
  });

  it('claims -2, -3… for repeated names', () => {
    const taken = new Set(['a']);
    expect([claimUniqueName('a', taken), claimUniqueName('a', taken), claimUniqueName('b', taken)]).toEqual(['a-2', 'a-3', 'b']);
  });
});
