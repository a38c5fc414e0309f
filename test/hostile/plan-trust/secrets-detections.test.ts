/**
 * Issue 15, attack 10: literal credentials anywhere a job runs or sends them. Each is refused by the
 * real `validate` command (text, JSON, GitHub annotations, SARIF) and by `plan` (text and markdown)
 * with an error at the exact value's file:line:column, and no output ever quotes the secret.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Plan from '../../../src/commands/plan.js';
import Validate from '../../../src/commands/validate.js';
import { DEFAULT_DATA_DIR } from '../../../src/db/client.js';
import { seedEmbeddedDatabase } from '../../support/databases.js';
import { inWorkingDirectory, repoRoot, runCommand } from '../../support/run-command.js';

// Vendor-shaped samples are assembled at run time: no file of the repository holds a scannable token.
const join = (...parts: string[]) => parts.join('');
const GITHUB = join('gh', 'p_', 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa98');
const GITHUB_PAT = join('github', '_pat_', '11ABCDEFG0', 'q7Rk2XbP9mLw4Tz8VnC3sHd6q7Rk2XbP9mLw4Tz8VnC3sH');
const AWS = join('AS', 'IA', 'Q7R2X9P4M8L3T6Z1');
const SLACK = join('xo', 'xb-', '2468013579-1357924680-QwErTyUiOpAs');
const STRIPE = join('sk', '_live_', '51Hq7Rk2XbP9mLw4Tz8VnC3sHd6');
const JWT = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"cronform"}').toString('base64url')}.c2lnbmF0dXJlLWhvc3RpbGU`;
const KEY = join('-----BEGIN OPENSSH ', 'PRIVATE KEY-----');

interface Case {
  name: string;
  job: string;
  code: string;
  /** The value as written in the manifest: the error points at its first character. */
  at: string;
  /** What must never be printed. */
  secret: string;
}

const cases: Case[] = [
  { name: 'a GitHub token in a clone URL', job: `{ type: command, command: [git, clone, "https://${GITHUB}@github.com/org/repo"] }`, code: 'CF041', at: `"https://${GITHUB}`, secret: GITHUB.slice(4) },
  { name: 'a fine-grained GitHub token in sh -c', job: `{ type: command, command: [sh, -c, "gh api /user -H 'Authorization: token ${GITHUB_PAT}'"] }`, code: 'CF041', at: '"gh api', secret: GITHUB_PAT.slice(11) },
  { name: 'an AWS key id after --access-key', job: `{ type: command, command: [aws, s3, ls, --access-key, ${AWS}] }`, code: 'CF041', at: AWS, secret: AWS.slice(4) },
  { name: 'a Slack token', job: `{ type: command, command: [notify, "--slack=${SLACK}"] }`, code: 'CF041', at: `"--slack=`, secret: SLACK.slice(5) },
  { name: 'a Stripe live key', job: `{ type: command, command: [node, charge.js, ${STRIPE}] }`, code: 'CF041', at: STRIPE, secret: STRIPE.slice(8) },
  { name: 'a JWT', job: `{ type: command, command: [curl, -H, "Authorization: Bearer ${JWT}", https://api.example.com] }`, code: 'CF041', at: '"Authorization:', secret: JWT.slice(10) },
  { name: 'a private key block', job: `{ type: command, command: [sh, -c, "printf '${KEY}\\\\nb3BlbnNzaC1rZXktdjE' > id"] }`, code: 'CF041', at: '"printf', secret: 'b3BlbnNzaC1rZXktdjE' },
  { name: 'user:pass@ in an argument', job: '{ type: command, command: [rsync, -a, "https://deploy:Tr0ub4dor-3@mirror.example.com/x", /srv] }', code: 'CF041', at: '"https://deploy', secret: 'Tr0ub4dor' },
  { name: '--password=', job: '{ type: command, command: [backup, --password=Hunter2-backup] }', code: 'CF041', at: '--password=', secret: 'Hunter2-backup' },
  { name: '--password as a separate argument', job: '{ type: command, command: [backup, --password, Hunter2-backup] }', code: 'CF041', at: 'Hunter2-backup', secret: 'Hunter2-backup' },
  { name: 'password= in sh -c', job: '{ type: command, command: [sh, -c, "exporter password=Hunter2-sh | gzip > out.gz"] }', code: 'CF041', at: '"exporter', secret: 'Hunter2-sh' },
  { name: 'mysql -p<password>', job: '{ type: command, command: [mysqldump, -uroot, -pHunter2-mysql, app] }', code: 'CF041', at: '-pHunter2', secret: 'Hunter2-mysql' },
  { name: 'a postgres:// connection string', job: '{ type: command, command: [psql, "postgres://app:Hunter2-pg@db.internal/app", -c, "select 1"] }', code: 'CF041', at: '"postgres://', secret: 'Hunter2-pg' },
  { name: 'a mysql:// connection string in sh -c', job: '{ type: command, command: [sh, -c, "migrate -database mysql://app:Hunter2-my@tcp(db:3306)/app up"] }', code: 'CF041', at: '"migrate', secret: 'Hunter2-my' },
  { name: 'a mongodb+srv:// connection string', job: '{ type: command, command: [mongodump, "--uri=mongodb+srv://svc:Hunter2-mongo@cluster0.example.net/db"] }', code: 'CF041', at: '"--uri=', secret: 'Hunter2-mongo' },
  { name: 'a redis://:password@ URL', job: '{ type: command, command: [redis-cli, -u, "redis://:Hunter2-redis@cache:6379/0", ping] }', code: 'CF041', at: '"redis://', secret: 'Hunter2-redis' },
  { name: 'PGPASSWORD in env', job: '{ type: command, command: [pg_dump, app], env: { PGPASSWORD: Hunter2-pgenv } }', code: 'CF040', at: 'Hunter2-pgenv', secret: 'Hunter2-pgenv' },
  { name: 'MYSQL_PWD in env', job: '{ type: command, command: [mysqldump, app], env: { MYSQL_PWD: Hunter2-myenv } }', code: 'CF040', at: 'Hunter2-myenv', secret: 'Hunter2-myenv' },
  { name: 'a *_TOKEN env literal', job: '{ type: command, command: [sync], env: { SERVICE_TOKEN: "Hunter2-token" } }', code: 'CF040', at: '"Hunter2-token"', secret: 'Hunter2-token' },
  { name: 'user:pass@ in an http url', job: '{ type: http, url: "https://svc:Hunter2-url@api.example.com/hook" }', code: 'CF042', at: '"https://svc', secret: 'Hunter2-url' },
  { name: '?access_token= in an http url', job: '{ type: http, url: "https://api.example.com/hook?access_token=Hunter2-query" }', code: 'CF042', at: '"https://api.example.com/hook?access_token', secret: 'Hunter2-query' },
  { name: '?api_key= in an http url', job: '{ type: http, url: "https://api.example.com/hook?page=1&api_key=Hunter2-apikey" }', code: 'CF042', at: '"https://api.example.com/hook?page', secret: 'Hunter2-apikey' },
  { name: 'a sig= signed URL', job: '{ type: http, url: "https://blob.example.com/c/f?sv=2024-01-01&sig=Hunter2Signature" }', code: 'CF042', at: '"https://blob', secret: 'Hunter2Signature' },
  { name: 'a form body with client_secret', job: '{ type: http, url: "https://auth.example.com/token", body: "grant_type=client_credentials&client_secret=Hunter2-form" }', code: 'CF042', at: '"grant_type', secret: 'Hunter2-form' },
  { name: 'a JSON body field named password', job: '{ type: http, url: "https://api.example.com/login", body: { user: svc, password: Hunter2-json } }', code: 'CF042', at: 'Hunter2-json', secret: 'Hunter2-json' },
  { name: 'a JSON text body with a token', job: `{ type: http, url: "https://api.example.com/x", body: '{"note":"ok","auth":"${GITHUB}"}' }`, code: 'CF042', at: `'{"note"`, secret: GITHUB.slice(4) },
  { name: 'a literal bearer header', job: '{ type: http, url: "https://api.example.com/x", headers: { Authorization: "Bearer Hunter2Bearer0123" } }', code: 'CF040', at: '"Bearer', secret: 'Hunter2Bearer0123' },
];

const manifest = (name: string, job: string) =>
  `apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${name}\nspec:\n  cron: "0 3 * * *"\n  timezone: UTC\n  job: ${job}\n`;
const fileName = (index: number) => `leak-${String(index).padStart(2, '0')}.yaml`;

/** Where `at` starts in `text`, as 1-based line:column. */
function locationOf(text: string, at: string): string {
  const offset = text.indexOf(at);
  expect(offset, `${at} in ${text}`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-secrets-'));
const schedulesDir = path.join(scratch, 'schedules');
mkdirSync(schedulesDir, { recursive: true });
const expected = cases.map((c, i) => {
  const text = manifest(`leak-${i}`, c.job);
  writeFileSync(path.join(schedulesDir, fileName(i)), text);
  return { ...c, file: fileName(i), location: locationOf(text, c.at) };
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const everySecret = (output: string) => expected.filter((c) => output.includes(c.secret)).map((c) => c.name);

describe('literal credentials in what a job runs or sends', () => {
  it.each(expected)('validate refuses $name with $code at the value, never printing it', async ({ file, code, location, secret }) => {
    const { stdout, stderr, exitCode } = await runCommand(Validate, [path.join(schedulesDir, file)]);
    expect(exitCode, stdout).toBe(1);
    expect(stdout).toContain(`${file}:${location} error ${code} literal secret in spec.job.`);
    expect(`${stdout}${stderr}`).not.toContain(secret);
  });

  it('leaves references, placeholders and the repository\'s example schedules valid', async () => {
    const benign = path.join(scratch, 'benign');
    mkdirSync(benign, { recursive: true });
    const jobs = [
      '{ type: command, command: [backup, --password-file, /run/secrets/db, --date, "{{businessDate}}"], env: { PGPASSWORD: { fromEnv: PGPASSWORD } } }',
      '{ type: command, command: [sh, -c, \'backup --token "$API_TOKEN" --password="$(cat /run/secrets/pw)" && mkdir -p /tmp/x\'] }',
      '{ type: command, command: [psql, --password, reports, -c, "select 1"] }',
      '{ type: command, command: [curl, -H, "Authorization: Bearer ${API_TOKEN}", "https://api.example.com/x?date={{businessDate}}"] }',
      '{ type: http, url: "https://api.example.com/hook?page=2&key_id=primary", headers: { Authorization: { fromEnv: API_TOKEN } }, body: { date: "{{businessDate}}", password: "{{runId}}" } }',
    ];
    jobs.forEach((job, i) => writeFileSync(path.join(benign, `ok-${i}.yaml`), manifest(`ok-${i}`, job)));
    for (const dir of [benign, path.join(repoRoot, 'schedules')]) {
      const { stdout, exitCode } = await runCommand(Validate, [dir]);
      expect(exitCode, stdout).toBe(0);
    }
  });

  it.each(['json', 'github', 'sarif'])('validate --format %s prints none of them', async (format) => {
    const { stdout, stderr, exitCode } = await runCommand(Validate, [schedulesDir, '--format', format]);
    expect(exitCode).toBe(1);
    expect(everySecret(`${stdout}${stderr}`)).toEqual([]);
    for (const c of expected) expect(stdout).toContain(c.code);
  });

  it('plan refuses them all, located, in text and markdown, and prints none of them', async () => {
    await seedEmbeddedDatabase(path.join(scratch, DEFAULT_DATA_DIR));
    await inWorkingDirectory(scratch, async () => {
      for (const format of ['text', 'markdown']) {
        const { stdout, stderr, exitCode } = await runCommand(Plan, ['--format', format]);
        expect(exitCode, stdout).toBe(1);
        expect(everySecret(`${stdout}${stderr}`)).toEqual([]);
        const lines = stdout.split('\n');
        for (const c of expected) {
          expect(lines.some((line) => line.includes(`${c.file}:${c.location}`) && line.includes(` ${c.code} `)), `${format}: ${c.name}`).toBe(true);
        }
      }
    });
  }, 120_000);
});
