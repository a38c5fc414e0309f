import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';
import { checkManifests } from './check-manifests.js';

type Expected = [code: string, line: number, column: number, path?: string];

// One fixture per diagnostic code (CF001, CF002, CF005, CF009 need generated input: see load/parse tests).
const cases: Array<{ fixture: string; expected: Expected[] }> = [
  { fixture: 'cf003-broken-yaml.yaml', expected: [['CF003', 8, 3]] },
  { fixture: 'cf003-tabs.yaml', expected: [['CF003', 7, 1]] },
  { fixture: 'cf004-duplicate-key.yaml', expected: [['CF004', 9, 3, 'spec.timezone']] },
  { fixture: 'cf006-alias-bomb.yaml', expected: [['CF006', 8, 12]] },
  { fixture: 'cf007-list-document.yaml', expected: [['CF007', 2, 1]] },
  { fixture: 'cf008-proto-key.yaml', expected: [['CF008', 10, 5, 'spec.payload.__proto__']] },
  { fixture: 'cf010-api-version.yaml', expected: [['CF010', 1, 13, 'apiVersion']] },
  { fixture: 'cf010-kind.yaml', expected: [['CF010', 2, 7, 'kind']] },
  { fixture: 'cf011-unknown-field.yaml', expected: [['CF011', 8, 3, 'spec.tmezone']] },
  {
    fixture: 'cf013-invalid-value.yaml',
    expected: [
      ['CF013', 7, 13, 'spec.timezone'],
      ['CF013', 9, 12, 'spec.overlap'],
      ['CF013', 10, 12, 'spec.timeout'],
    ],
  },
  { fixture: 'cf014-missing-field.yaml', expected: [['CF014', 5, 1, 'spec.cron']] },
  { fixture: 'cf015-duplicate-name', expected: [['CF015', 5, 9, 'metadata.name']] },
  { fixture: 'cf016-multiple-policies.yaml', expected: [['CF016', 8, 7, 'kind']] },
  {
    fixture: 'cf040-literal-secrets.yaml',
    expected: [
      ['CF040', 13, 21, 'spec.job.env.GITHUB_TOKEN'],
      ['CF040', 14, 26, 'spec.job.env.AWS_ACCESS_KEY_ID'],
      ['CF040', 15, 20, 'spec.job.env.DB_PASSWORD'],
      ['CF040', 16, 21, 'spec.job.env.DATABASE_URL'],
      ['CF040', 17, 21, 'spec.job.env.SIGNING_SEED'],
      ['CF040', 29, 14, 'spec.payload.session'],
      ['CF040', 32, 19, 'spec.payload.sftp.privateKey'],
    ],
  },
  {
    fixture: 'cf040-literal-secret-header.yaml',
    expected: [
      ['CF040', 12, 22, 'spec.job.headers.Authorization'],
      ['CF040', 13, 18, 'spec.job.headers.X-Api-Key'],
    ],
  },
];

describe('invalid fixtures', () => {
  it.each(cases)('$fixture', async ({ fixture, expected }) => {
    const diagnostics = await checkManifests([`test/fixtures/invalid/${fixture}`]);
    const actual = diagnostics.map((d): Expected => (d.path === undefined ? [d.code, d.line!, d.column!] : [d.code, d.line!, d.column!, d.path]));
    expect(actual).toEqual(expected);
    expect(diagnostics.every((d) => d.severity === 'error' && d.file?.startsWith(`test/fixtures/invalid/${fixture}`))).toBe(true);
  });

  it('words diagnostics for people', async () => {
    const [unknown] = await checkManifests(['test/fixtures/invalid/cf011-unknown-field.yaml']);
    expect(formatDiagnostic(unknown!)).toMatchInlineSnapshot(`
      "test/fixtures/invalid/cf011-unknown-field.yaml:8:3 error CF011 unknown field "tmezone" in spec
        hint: did you mean "timezone"?"
    `);
    const [duplicate] = await checkManifests(['test/fixtures/invalid/cf015-duplicate-name']);
    expect(formatDiagnostic(duplicate!)).toMatchInlineSnapshot(`
      "test/fixtures/invalid/cf015-duplicate-name/b.yaml:5:9 error CF015 schedule name "nightly-export" is already used at test/fixtures/invalid/cf015-duplicate-name/a.yaml:4:9
        hint: names identify schedules and their history: give each schedule its own name"
    `);
    const [tabs] = await checkManifests(['test/fixtures/invalid/cf003-tabs.yaml']);
    expect(formatDiagnostic(tabs!)).toMatchInlineSnapshot(`"test/fixtures/invalid/cf003-tabs.yaml:7:1 error CF003 tab used for indentation; YAML indentation must use spaces"`);
  });

  it('never prints a secret it found', async () => {
    const diagnostics = await checkManifests(['test/fixtures/invalid/cf040-literal-secrets.yaml']);
    const printed = diagnostics.map(formatDiagnostic).join('\n');
    for (const secret of ['FAKE0TOKEN0FOR0CRONFORM', 'IOSFODNN7', 'hunter2', 's3cret-pass', 'q7Rk2XbP9mLw4Tz8', 'dozjgNryP4J3', 'b3BlbnNzaC1rZXkt']) {
      expect(printed).not.toContain(secret);
    }
    expect(printed).toMatchInlineSnapshot(`
      "test/fixtures/invalid/cf040-literal-secrets.yaml:13:21 error CF040 literal secret in spec.job.env.GITHUB_TOKEN: GitHub token ghp_…(40 chars)
        hint: use { fromEnv: GITHUB_TOKEN } and set GITHUB_TOKEN in the runner's environment
      test/fixtures/invalid/cf040-literal-secrets.yaml:14:26 error CF040 literal secret in spec.job.env.AWS_ACCESS_KEY_ID: AWS access key id AKIA…(20 chars)
        hint: use { fromEnv: AWS_ACCESS_KEY_ID } and set AWS_ACCESS_KEY_ID in the runner's environment
      test/fixtures/invalid/cf040-literal-secrets.yaml:15:20 error CF040 literal secret in spec.job.env.DB_PASSWORD: value of a variable named like a credential …(7 chars)
        hint: use { fromEnv: DB_PASSWORD } and set DB_PASSWORD in the runner's environment
      test/fixtures/invalid/cf040-literal-secrets.yaml:16:21 error CF040 literal secret in spec.job.env.DATABASE_URL: URL with a password postgres://db.internal:5432 (password of 11 chars)
        hint: use { fromEnv: DATABASE_URL } and set DATABASE_URL in the runner's environment
      test/fixtures/invalid/cf040-literal-secrets.yaml:17:21 error CF040 literal secret in spec.job.env.SIGNING_SEED: high-entropy string …(24 chars)
        hint: use { fromEnv: SIGNING_SEED } and set SIGNING_SEED in the runner's environment
      test/fixtures/invalid/cf040-literal-secrets.yaml:29:14 error CF040 literal secret in spec.payload.session: JSON Web Token eyJ…(108 chars)
        hint: payload is handed to the job as plain JSON: pass secrets through spec.job.env with { fromEnv: NAME }
      test/fixtures/invalid/cf040-literal-secrets.yaml:32:19 error CF040 literal secret in spec.payload.sftp.privateKey: private key -----BEGIN OPENSSH PRIVATE KEY-----…(115 chars)
        hint: payload is handed to the job as plain JSON: pass secrets through spec.job.env with { fromEnv: NAME }"
    `);
  });
});
