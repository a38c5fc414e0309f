import { describe, expect, it } from 'vitest';
import { isHighEntropyToken, isSensitiveKeyName, matchSecretValue } from '../../src/manifest/secret-patterns.js';
import { findLiteralSecrets } from '../../src/manifest/secrets.js';
import { parseOne } from './check-manifests.js';

// Vendor-shaped samples are assembled at run time so that no file in the repository holds a
// string that secret scanners (ours or GitHub's) would report.
const join = (...parts: string[]) => parts.join('');
const base64url = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
const jwt = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: '42' })}.c2lnbmF0dXJlLW9mLXRlc3Rz`;

describe('matchSecretValue', () => {
  it.each([
    ['GitHub token', join('gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'), 'ghp_…(40 chars)'],
    ['GitHub token', join('github', '_pat_', '11AAAAAAA0', 'b'.repeat(40)), 'github_pat_…(61 chars)'],
    ['GitLab token', join('gl', 'pat-', 'x1y2z3w4v5u6t7s8r9q0'), 'glpat-…(26 chars)'],
    ['Slack token', join('xo', 'xb-', '1234567890-0987654321-AbCdEfGhIjKl'), 'xoxb-…(39 chars)'],
    ['Slack token', join('xo', 'xp-', '1234567890-0987654321'), 'xoxp-…(26 chars)'],
    ['Slack webhook URL', join('https://hooks.', 'slack.com/services/', 'T0000/B0000/', 'x'.repeat(24)), 'https://hooks.slack.com/…(69 chars)'],
    ['Stripe secret key', join('sk', '_live_', '4eC39HqLyjWDarjtT1zdp7dc'), 'sk_live_…(32 chars)'],
    ['Stripe secret key', join('rk', '_live_', '4eC39HqLyjWDarjtT1zdp7dc'), 'rk_live_…(32 chars)'],
    ['API secret key', join('sk', '-proj-', 'Abc123Def456Ghi789Jkl012'), 'sk-…(32 chars)'],
    ['AWS access key id', join('AK', 'IA', 'Z7Y6X5W4V3U2T1S0'), 'AKIA…(20 chars)'],
    ['Google API key', join('AI', 'za', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'), 'AIza…(39 chars)'],
    ['npm token', join('np', 'm_', 'a1'.repeat(18)), 'npm_…(40 chars)'],
    ['SendGrid API key', join('SG', '.', 'a'.repeat(22), '.', 'b'.repeat(43)), 'SG.…(69 chars)'],
    ['JSON Web Token', jwt, `eyJ…(${jwt.length} chars)`],
    ['private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', '-----BEGIN RSA PRIVATE KEY-----…(68 chars)'],
    ['private key', '-----BEGIN PRIVATE KEY-----', '-----BEGIN PRIVATE KEY-----…(27 chars)'],
    ['authorization credential', 'Bearer 0123456789abcdef0123', 'Bearer …(20 chars)'],
    ['authorization credential', 'Basic dXNlcjpwYXNzd29yZA==', 'Basic …(20 chars)'],
    ['URL with a password', 'postgres://app:hunter2@db.internal/app', 'postgres://db.internal (password of 7 chars)'],
    ['URL with a credential parameter "access_token"', 'https://api.example.com/x?access_token=abc', 'https://api.example.com (access_token=…, 3 chars)'],
    ['high-entropy string', 'q7Rk2XbP9mLw4Tz8VnC3sHd6', '…(24 chars)'],
    ['GitHub token', `token ${join('gh', 'o_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8')} in a sentence`, 'gho_…(40 chars)'],
  ])('%s: %s', (kind, value, redacted) => {
    expect(matchSecretValue(value)).toEqual({ kind, redacted });
  });

  it.each([
    'full',
    'application/json',
    'https://api.example.com/healthz?page=2',
    'postgres://app@db.internal/app',
    '/var/lib/reports/2025-01-31.csv',
    '2025-01-31T19:30:00+09:00',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    'da39a3ee5e6b4b0d3255bfef95601890afd80709',
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'ReconcilePaymentsDaily2024Q3',
    'platform-team-reports-daily-v2',
    'com.example.reports.DailySummary',
    'arn:aws:iam::123456789012:role/ReportWriter',
    'sk-backup-region-europe-west',
    'task-manager-backup-2024',
    'api.example.com',
    'Bearer {{token}}',
    '{{businessDate}}',
    '${NOTION_TOKEN}',
    '<your token here>',
    'node jobs/daily-report.js --date 2025-01-31',
  ])('does not flag %s', (value) => {
    expect(matchSecretValue(value)).toBeUndefined();
  });

  it('flags random base62 tokens from 20 characters on', () => {
    // Fixed samples (generated once) instead of a random generator: tests stay deterministic.
    for (const token of ['N4wq8ZkT1pRb7YcV2mXs', 'hG5tL0aQ9vE3nW7kP2yD8sZf', 'Tq3Lm8Vx1Kc6Rz9Hb4Nw7Jd2Pf5Gs0Ya']) {
      expect(isHighEntropyToken(token)).toBe(true);
    }
  });

  it('leaves paths alone, with a random temporary-directory suffix too (the chaos suite passes one)', () => {
    for (const path of ['/tmp/cronform-chaos-fNq1iP', './out/Report2024Q3xZ9kLm', '../data/Hg5tL0aQ9vE3nW7kP2yD', '~/work/N4wq8ZkT1pRb7YcV2mXs']) {
      expect(isHighEntropyToken(path), path).toBe(false);
    }
  });
});

describe('isSensitiveKeyName', () => {
  it.each([
    ['password', true],
    ['DB_PASSWORD', true],
    ['SMTP_PASS', true],
    ['NOTION_TOKEN', true],
    ['apiKey', true],
    ['X-Api-Key', true],
    ['client_secret', true],
    ['privateKey', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['Authorization', true],
    ['credentials', true],
    ['TOKEN_URL', false],
    ['DB_PASSWORD_FILE', false],
    ['secretName', false],
    ['maxTokens', false],
    ['primaryKey', false],
    ['keyboard', false],
    ['bypass', false],
    ['PWD', false],
  ])('%s → %s', (name, expected) => {
    expect(isSensitiveKeyName(name)).toBe(expected);
  });
});

describe('findLiteralSecrets', () => {
  const manifest = (spec: string) =>
    `apiVersion: cronform/v1\nkind: Schedule\nmetadata: { name: x }\nspec:\n  cron: "0 * * * *"\n  timezone: UTC\n${spec}`;

  it('looks into env, headers and every level of payload, pointing at the value', () => {
    const doc = parseOne(
      manifest(
        [
          '  job:',
          '    type: http',
          '    url: https://example.com',
          '    headers: { Cookie: "session=abc", X-Trace: on }',
          '  payload:',
          '    targets:',
          '      - name: warehouse',
          '        password: 123456',
          '      - name: lake',
          '        password: ""',
          '',
        ].join('\n'),
      ),
    );
    expect(findLiteralSecrets(doc).map((d) => [d.code, d.line, d.column, d.path, d.message])).toEqual([
      ['CF040', 10, 24, 'spec.job.headers.Cookie', 'literal secret in spec.job.headers.Cookie: value of a header named like a credential …(11 chars)'],
      ['CF040', 14, 19, 'spec.payload.targets[0].password', 'literal secret in spec.payload.targets[0].password: value of a field named like a credential …(6 chars)'],
    ]);
  });

  it('accepts references and ignores documents without those sections', () => {
    const job = '  job:\n    type: command\n    command: [x]\n    env: { NOTION_TOKEN: { fromEnv: NOTION_TOKEN }, MODE: full }\n';
    expect(findLiteralSecrets(parseOne(manifest(job)))).toEqual([]);
    expect(findLiteralSecrets(parseOne('kind: Policy\nspec: { queues: {} }\n'))).toEqual([]);
    expect(findLiteralSecrets(parseOne('spec: [1, 2]\n'))).toEqual([]);
  });

  it('looks into command arguments, the url and the body, pointing at the exact value and never quoting it', () => {
    const command = parseOne(manifest('  job:\n    type: command\n    command: [backup, --password, hunter2-pw, --quiet]\n'));
    const http = parseOne(
      manifest(
        [
          '  job:',
          '    type: http',
          '    url: "https://api.example.com/hook?access_token=abc123"',
          '    body:',
          '      user: svc',
          '      password: s3cret-value',
          '',
        ].join('\n'),
      ),
    );
    const found = [...findLiteralSecrets(command), ...findLiteralSecrets(http)];
    expect(found.map((d) => [d.code, d.line, d.column, d.path, d.message])).toEqual([
      ['CF041', 9, 35, 'spec.job.command[2]', 'literal secret in spec.job.command[2]: value of an option named like a credential (password) …(10 chars)'],
      ['CF042', 9, 10, 'spec.job.url', 'literal secret in spec.job.url: URL with a credential parameter "access_token" https://api.example.com (access_token=…, 6 chars)'],
      ['CF042', 12, 17, 'spec.job.body.password', 'literal secret in spec.job.body.password: value of a field named like a credential (password) …(12 chars)'],
    ]);
    expect(JSON.stringify(found)).not.toMatch(/hunter2|abc123|s3cret/);
  });
});
