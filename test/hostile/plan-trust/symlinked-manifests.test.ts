/**
 * Attack 8, reading: a pull request adds manifests that are symbolic links out of the manifest
 * directory (to `.git/config`, which holds the checkout token, or anywhere on the runner), or a
 * linked folder. cronform refuses them with a located CF017 error and never reads them: the token
 * appears in no output of validate (text, json, github, sarif) or plan (text, markdown).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Plan from '../../../src/commands/plan.js';
import Validate from '../../../src/commands/validate.js';
import { DEFAULT_DATA_DIR } from '../../../src/db/client.js';
import { loadManifestSources } from '../../../src/manifest/load.js';
import { seedEmbeddedDatabase } from '../../support/databases.js';
import { inWorkingDirectory, runCommand } from '../../support/run-command.js';

const TOKEN = 'ghs_L3akedCheckoutT0ken0000000000000000';
/** What a checkout with persisted credentials leaves in .git/config, shaped so YAML would quote it. */
const GIT_CONFIG = `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\nkey: ${TOKEN}\n`;
const SCHEDULE = `apiVersion: cronform/v1
kind: Schedule
metadata:
  name: nightly
spec:
  cron: "0 3 * * *"
  timezone: Europe/Berlin
  job:
    type: command
    command: ["node", "jobs/nightly.js"]
`;

let repo: string;
let outside: string;
beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'cronform-links-repo-'));
  outside = mkdtempSync(path.join(tmpdir(), 'cronform-links-outside-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write(path.join(repo, '.git', 'config'), GIT_CONFIG);
  write(path.join(repo, 'schedules', 'nightly.yaml'), SCHEDULE);
  write(path.join(repo, 'schedules', 'versions', 'current.yaml'), SCHEDULE.replace('nightly', 'weekly').replace('0 3 * * *', '0 4 * * 1'));
  write(path.join(outside, 'token.yaml'), `key: ${TOKEN}\n`);
  write(path.join(outside, 'deep', 'token.yaml'), `key: ${TOKEN}\n`);
  // Relative and absolute links out of the manifest directory, and a linked folder.
  symlinkSync('../.git/config', path.join(repo, 'schedules', 'git-config.yaml'));
  symlinkSync(path.join(outside, 'token.yaml'), path.join(repo, 'schedules', 'abs.yaml'));
  symlinkSync(path.join(outside, 'deep'), path.join(repo, 'schedules', 'linked-folder'));
  // A link that stays inside the manifest directory is allowed.
  symlinkSync('versions/current.yaml', path.join(repo, 'schedules', 'current.yaml'));
  // A manifest directory that is itself a link out of the repository.
  symlinkSync(outside, path.join(repo, 'elsewhere'));
});
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const savedSummary = process.env.GITHUB_STEP_SUMMARY;
afterEach(() => {
  if (savedSummary === undefined) delete process.env.GITHUB_STEP_SUMMARY;
  else process.env.GITHUB_STEP_SUMMARY = savedSummary;
});

const REFUSED = ['schedules/abs.yaml', 'schedules/git-config.yaml', 'schedules/linked-folder'];

describe('loading manifests through links', () => {
  it('refuses links leading out of the root, at line 1, naming nothing of the target', async () => {
    const result = await loadManifestSources(['schedules'], { cwd: repo });
    expect(result.sources.map((s) => s.file)).toEqual(['schedules/current.yaml', 'schedules/nightly.yaml', 'schedules/versions/current.yaml']);
    const refused = result.diagnostics.map((d) => [d.code, d.file, d.line, d.column]);
    expect(refused).toEqual(expect.arrayContaining(REFUSED.map((file) => ['CF017', file, 1, 1])));
    expect(result.diagnostics).toHaveLength(REFUSED.length);
    expect(result.diagnostics[0]).toMatchObject({
      severity: 'error',
      message: expect.stringMatching(/^schedules\/\S+ is a symbolic link \(or lies under one\) that leads outside schedules: not read$/),
    });
    const printed = JSON.stringify(result);
    expect(printed).not.toContain(TOKEN);
    expect(printed).not.toContain(outside);
    expect(printed).not.toContain('.git');
  });

  it('refuses a link named explicitly, and files under a linked folder named explicitly', async () => {
    const result = await loadManifestSources(['schedules/git-config.yaml', 'schedules/linked-folder/token.yaml', 'elsewhere', 'elsewhere/token.yaml'], { cwd: repo });
    expect(result.sources).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['CF017', 'schedules/git-config.yaml', 1],
      ['CF017', 'schedules/linked-folder/token.yaml', 1],
      ['CF017', 'elsewhere', 1],
      ['CF017', 'elsewhere/token.yaml', 1],
    ]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('with the repository as the root, a link into .git is still refused', async () => {
    const result = await loadManifestSources(['.'], { cwd: repo });
    expect(result.diagnostics.map((d) => d.file)).toEqual(expect.arrayContaining(['schedules/git-config.yaml', 'schedules/abs.yaml']));
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('a link elsewhere in the repository is refused when the root is the manifest directory', async () => {
    symlinkSync('../README.yaml', path.join(repo, 'schedules', 'readme-link.yaml'));
    writeFileSync(path.join(repo, 'README.yaml'), `key: ${TOKEN}\n`);
    try {
      const result = await loadManifestSources(['schedules'], { cwd: repo });
      expect(result.diagnostics.map((d) => d.file)).toContain('schedules/readme-link.yaml');
      expect(JSON.stringify(result)).not.toContain(TOKEN);
    } finally {
      rmSync(path.join(repo, 'schedules', 'readme-link.yaml'));
      rmSync(path.join(repo, 'README.yaml'));
    }
  });
});

describe('through the commands', () => {
  beforeAll(() => seedEmbeddedDatabase(path.join(repo, DEFAULT_DATA_DIR)), 60_000);

  it.each(['text', 'json', 'github', 'sarif'])('validate --format %s reports CF017 and never the token', async (format) => {
    const summary = path.join(repo, `summary-${format}.md`);
    process.env.GITHUB_STEP_SUMMARY = summary;
    writeFileSync(summary, '');
    const result = await inWorkingDirectory(repo, () => runCommand(Validate, ['--format', format, 'schedules']));
    expect(result.exitCode).toBe(1);
    const everything = `${result.stdout}${result.stderr}${result.message}${readFileSync(summary, 'utf8')}`;
    expect(everything).toContain('CF017');
    expect(everything).toContain('git-config.yaml');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(outside);
    if (format === 'github') expect(result.stdout).toContain('::error file=schedules/git-config.yaml,line=1,col=1,title=cronform CF017::');
    if (format === 'text') expect(result.stdout).toMatch(/^schedules\/git-config\.yaml:1:1 error CF017 /m);
  });

  it.each(['text', 'markdown'])('plan --format %s fails on CF017 and never shows the token', async (format) => {
    const result = await inWorkingDirectory(repo, () => runCommand(Plan, ['--format', format, '--dir', 'schedules']));
    expect(result.exitCode).toBe(1);
    const everything = `${result.stdout}${result.stderr}${result.message}`;
    expect(everything).toContain('CF017');
    expect(everything).not.toContain(TOKEN);
  }, 60_000);
});
