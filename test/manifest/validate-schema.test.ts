import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { suggestClosest } from '../../src/manifest/did-you-mean.js';
import { validateDocumentSchema } from '../../src/manifest/validate-schema.js';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';
import { checkManifests, parseOne, repoRoot } from './check-manifests.js';

const HEAD = 'apiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: example\n';
const JOB = '  job: { type: command, command: [node, jobs/x.js] }\n';
/** A valid schedule with `lines` appended to its spec (two-space indented). */
const schedule = (lines = '') => `${HEAD}spec:\n  cron: "0 * * * *"\n  timezone: UTC\n${JOB}${lines}`;
const validate = (text: string) =>
  validateDocumentSchema(parseOne(text)).map((d) => ({ code: d.code, at: `${d.line}:${d.column}`, path: d.path, message: d.message, hint: d.hint }));

describe('the example manifests in schedules/', () => {
  const files = readdirSync(path.join(repoRoot, 'schedules')).filter((f) => f.endsWith('.yaml'));

  it('cover every documented example', () => {
    expect(files.sort()).toEqual([
      'cleanup.yaml',
      'daily-report.yaml',
      'health-check.yaml',
      'hello.yaml',
      'hourly-aggregation.yaml',
      'policy.yaml',
      'reconciliation.yaml',
      'weekly-report.yaml',
    ]);
  });

  it('parse, pass the schema and hold no literal secrets', async () => {
    expect(await checkManifests(['schedules'])).toEqual([]);
  });
});

describe('validateDocumentSchema', () => {
  it('accepts a minimal schedule and a minimal policy', () => {
    expect(validate(schedule())).toEqual([]);
    expect(validate('apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec: {}\n')).toEqual([]);
  });

  it.each([
    ['missing apiVersion', 'kind: Schedule\n', 'CF010', '1:1', 'apiVersion', 'missing apiVersion: expected "cronform/v1"'],
    ['missing kind', 'apiVersion: cronform/v1\n', 'CF010', '1:1', 'kind', 'missing kind: expected Schedule or Policy'],
    ['kind not a string', 'apiVersion: cronform/v1\nkind: 3\n', 'CF010', '2:7', 'kind', 'kind must be Schedule or Policy (got 3)'],
  ])('%s', (_name, text, code, at, pathText, message) => {
    expect(validate(text)).toEqual([{ code, at, path: pathText, message, hint: undefined }]);
  });

  it('reports only CF010 when apiVersion or kind is wrong, not the noise that follows', () => {
    expect(validate('apiVersion: v1\nkind: Job\nspec: { nonsense: true }\n').map((d) => [d.code, d.at, d.message, d.hint])).toEqual([
      ['CF010', '1:13', 'apiVersion must be "cronform/v1" (got "v1")', undefined],
      ['CF010', '2:7', 'kind must be Schedule or Policy (got "Job")', undefined],
    ]);
  });

  it.each([
    ['unknown top-level field', `${schedule()}extra: 1\n`, 'CF011', '9:1', 'extra', 'unknown field "extra" at the top level', 'allowed fields: apiVersion, kind, metadata, spec'],
    ['transposed letters', schedule('  retry: { maxAtempts: 3, bakcoff: fixed }\n'), 'CF011', '9:12', 'spec.retry.maxAtempts', 'unknown field "maxAtempts" in spec.retry', 'did you mean "maxAttempts"?'],
    ['unknown field in a job branch', schedule().replace('command: [node, jobs/x.js]', 'command: [x], url: y'), 'CF011', '8:39', 'spec.job.url', 'unknown field "url" in spec.job', 'allowed fields: type, command, cwd, env'],
  ])('CF011 %s', (_name, text, code, at, pathText, message, hint) => {
    expect(validate(text)[0]).toEqual({ code, at, path: pathText, message, hint });
  });

  it.each([
    ['spec', `${HEAD}kind2: x\n`.replace('kind2: x\n', ''), 'CF014', '1:1', 'spec', 'missing required field "spec"'],
    ['job', `${HEAD}spec:\n  cron: "0 * * * *"\n  timezone: UTC\n`, 'CF014', '5:1', 'spec.job', 'missing required field "spec.job"'],
    ['job type', schedule().replace('type: command, ', ''), 'CF014', '8:3', 'spec.job.type', 'missing required field "spec.job.type"'],
    ['http url', schedule().replace('type: command, command: [node, jobs/x.js]', 'type: http'), 'CF014', '8:3', 'spec.job.url', 'missing required field "spec.job.url"'],
  ])('CF014 missing %s, located at the parent', (_name, text, code, at, pathText, message) => {
    expect(validate(text)[0]).toMatchObject({ code, at, path: pathText, message });
  });

  it.each([
    ['timezone: 9', schedule().replace('timezone: UTC', 'timezone: 9'), '7:13', 'spec.timezone must be a string (got number)', 'write it in quotes: "9"'],
    ['cron: 5', schedule().replace('cron: "0 * * * *"', 'cron: 5'), '6:9', 'spec.cron must be a string (got number)', 'write it in quotes: "5"'],
    ['timeout: 90', schedule('  timeout: 90\n'), '9:12', 'spec.timeout must be a string (got number)', 'write it with its unit, in quotes: "90s" (or ms, m, h, d)'],
    ['jitter: true', schedule('  jitter: true\n'), '9:11', 'spec.jitter must be a string (got boolean)', undefined],
    ['enum', schedule('  overlap: skip_new\n'), '9:12', 'spec.overlap must be one of ALLOW, SKIP_NEW, QUEUE_NEW (got "skip_new")', 'did you mean "SKIP_NEW"?'],
    ['duration', schedule('  timeout: 20 minutes\n'), '9:12', 'spec.timeout must be a duration <n>ms|s|m|h|d, e.g. 30s or 10m (got "20 minutes")', undefined],
    ['minimum', schedule('  maxCatchUp: 0\n'), '9:15', 'spec.maxCatchUp must be >= 1 (got 0)', undefined],
    ['integer', schedule('  businessDate: { offsetDays: 1.5 }\n'), '9:31', 'spec.businessDate.offsetDays must be an integer (got number)', undefined],
    ['empty command', schedule().replace('[node, jobs/x.js]', '[]'), '8:34', 'spec.job.command must have at least 1 item', undefined],
    ['job type', schedule().replace('type: command', 'type: shell'), '8:16', 'spec.job.type must be one of command, http, queue (got "shell")', undefined],
    ['env value', schedule().replace('command: [node, jobs/x.js]', 'command: [x], env: { PORT: 8080 }'), '8:52', 'spec.job.env.PORT must be a string or { fromEnv: NAME } (got number)', 'write it in quotes: "8080"'],
    ['fromEnv name', schedule().replace('command: [node, jobs/x.js]', 'command: [x], env: { T: { fromEnv: my-token } }'), '8:60', 'spec.job.env.T.fromEnv must be an environment variable name of uppercase letters, digits and "_", e.g. NOTION_TOKEN (got "my-token")', undefined],
    ['env name', schedule().replace('command: [node, jobs/x.js]', 'command: [x], env: { my-var: a }'), '8:46', 'spec.job.env: key "my-var" must be an environment variable name of letters, digits and "_", not starting with a digit', undefined],
    ['name', schedule().replace('name: example', 'name: Daily_Report'), '4:9', 'metadata.name must be a name of lowercase letters, digits and "-", starting and ending with a letter or digit (got "Daily_Report")', undefined],
    ['date', schedule().replace('name: example', 'name: x\n  riskAccepted: [{ code: CF101, reason: load test, until: 2026-02-30 }]'), '5:59', 'metadata.riskAccepted[0].until must be a date YYYY-MM-DD (got "2026-02-30")', undefined],
  ])('CF013 %s', (_name, text, at, message, hint) => {
    expect(validate(text)).toEqual([expect.objectContaining({ code: 'CF013', at, message, hint })]);
  });

  it('suggests for an unquoted number only a value that validates', () => {
    for (const [field, value] of [['timeout', '90'], ['jitter', '5'], ['timezone', '9'], ['cron', '5']] as const) {
      const text = field === 'timeout' || field === 'jitter' ? schedule(`  ${field}: ${value}\n`) : schedule().replace(field === 'cron' ? 'cron: "0 * * * *"' : 'timezone: UTC', `${field}: ${value}`);
      const hint = validate(text)[0]?.hint;
      const quoted = /"([^"]+)"/.exec(hint ?? '')?.[1];
      expect(quoted, `${field}: ${value}`).toBeDefined();
      const fixed = text.replace(`${field}: ${value}`, `${field}: "${quoted}"`);
      expect(validate(fixed), `${field}: "${quoted}"`).toEqual([]);
    }
  });

  it('shows a string command as the argv to write, which then validates', () => {
    const cases: Array<[string, string]> = [
      ['node jobs/x.js --date {{businessDate}}', 'command: [node, jobs/x.js, --date, "{{businessDate}}"]'],
      ["python3 -m 'reports.daily' 7 true", 'command: [python3, -m, reports.daily, "7", "true"]'],
      ['pg_dump app | gzip > /tmp/app.gz', 'command: [sh, -c, "pg_dump app | gzip > /tmp/app.gz"]'],
    ];
    for (const [command, list] of cases) {
      const text = schedule().replace('command: [node, jobs/x.js]', `command: ${JSON.stringify(command)}`);
      const [diagnostic] = validate(text);
      expect(diagnostic).toMatchObject({ code: 'CF013', message: 'spec.job.command must be a list (got string)' });
      expect(diagnostic?.hint).toContain(list);
      expect(validate(schedule().replace('command: [node, jobs/x.js]', list))).toEqual([]);
    }
  });

  it('explains an http job field by field, without oneOf/anyOf noise', () => {
    const text = schedule().replace(
      'type: command, command: [node, jobs/x.js]',
      'type: http, url: "not a url", method: get, headers: { X-Key: { fromEnv: K, extra: 1 } }, body: 5, expectStatus: [2xx, 700, "200-299", 204]',
    );
    expect(validateDocumentSchema(parseOne(text)).map(formatDiagnostic)).toMatchInlineSnapshot(`
      [
        "test.yaml:8:27 error CF013 spec.job.url must be an absolute URL such as https://example.com/hook (got "not a url")",
        "test.yaml:8:48 error CF013 spec.job.method must be one of GET, POST, PUT, PATCH, DELETE (got "get")
        hint: did you mean "GET"?",
        "test.yaml:8:85 error CF011 unknown field "extra" in spec.job.headers.X-Key
        hint: allowed fields: fromEnv",
        "test.yaml:8:105 error CF013 spec.job.body must be a string or a mapping (got number)
        hint: write it in quotes: "5"",
        "test.yaml:8:123 error CF013 spec.job.expectStatus[0] must be a status range such as "200-299" (got "2xx")",
        "test.yaml:8:128 error CF013 spec.job.expectStatus[1] must be <= 599 (got 700)",
      ]
    `);
  });

  it('validates 2,000 documents quickly (the validator is compiled once)', () => {
    const docs = Array.from({ length: 2000 }, (_, i) => parseOne(schedule().replace('name: example', `name: job-${i}`)));
    expect(docs.flatMap(validateDocumentSchema)).toEqual([]);
  });
});

describe('suggestClosest', () => {
  it.each([
    ['tmezone', ['cron', 'timezone'], 'timezone'],
    ['timzeone', ['timezone'], 'timezone'],
    ['TimeZone', ['timezone'], 'timezone'],
    ['skip_new', ['SKIP_NEW', 'QUEUE_NEW'], 'SKIP_NEW'],
    ['evn', ['env', 'cwd'], 'env'],
    ['xyz', ['env', 'cwd'], undefined],
    ['schedule', ['timezone', 'cron'], undefined],
  ] as const)('%s → %s', (word, candidates, expected) => {
    expect(suggestClosest(word, candidates)).toBe(expected);
  });
});
