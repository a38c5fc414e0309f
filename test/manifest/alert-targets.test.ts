import { describe, expect, it } from 'vitest';
import { compileSources } from '../../src/compile/compile-sources.js';
import { formatDiagnostic } from '../../src/shared/diagnostics.js';

const nowMs = Date.parse('2026-11-29T12:00:00Z');
const compile = (text: string, file = 'schedules/policy.yaml') => compileSources([{ file, text }], nowMs);
const located = (text: string) => compile(text).diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code} ${d.path}`);

const policy = (targets: string) => `apiVersion: cronform/v1
kind: Policy
metadata: { name: default }
spec:
  alerts:
    targets:
${targets}`;

describe('Policy alerts.targets', () => {
  it('compiles literal and fromEnv urls', () => {
    const result = compile(policy(`      - { name: oncall, type: webhook, url: "https://alerts.example.com/cronform" }
      - name: team
        type: slack
        url: { fromEnv: TEAM_SLACK_URL }
`));
    expect(result.diagnostics).toEqual([]);
    expect(result.policy.alerts).toEqual({ targets: [{ name: 'oncall', type: 'webhook', url: 'https://alerts.example.com/cronform' }, { name: 'team', type: 'slack', url: { fromEnv: 'TEAM_SLACK_URL' } }] });
  });

  it('leaves alerts out of a Policy without them, so its stored digest does not move', () => {
    expect('alerts' in compile('apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\nspec: { maxRunsPerDay: 100 }\n').policy).toBe(false);
  });

  it('rejects a url that is not http(s), an unknown type, an unknown field and a missing url, each at its line', () => {
    expect(located(policy(`      - name: a
        type: webhook
        url: "ftp://files.example.com/alerts"
      - name: b
        type: email
        url: "https://alerts.example.com/b"
      - name: c
        type: webhook
        url: "https://alerts.example.com/c"
        channel: "#ops"
      - name: d
        type: slack
`))).toEqual([
      '9:14 error CF013 spec.alerts.targets[0].url',
      '11:15 error CF013 spec.alerts.targets[1].type',
      '16:9 error CF011 spec.alerts.targets[2].channel',
      '17:9 error CF014 spec.alerts.targets[3].url',
    ]);
  });

  it('rejects a duplicate target name (CF035) and a literal Slack webhook URL (CF042), and does not compile that Policy', () => {
    const result = compile(policy(`      - { name: oncall, type: webhook, url: "https://alerts.example.com/cronform" }
      - name: oncall
        type: slack
        url: "https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/k8Jd93KdlP0qWm2nZxY7tR4s"
`));
    expect(result.diagnostics.map(formatDiagnostic).join('\n')).toMatchInlineSnapshot(`
      "schedules/policy.yaml:8:15 error CF035 alert target name "oncall" is already used by alerts.targets[0]
        hint: give each target its own name: deliveries are recorded by target name
      schedules/policy.yaml:10:14 error CF042 literal secret in spec.alerts.targets[1].url: Slack webhook URL https://hooks.slack.com/…(79 chars)
        hint: use url: { fromEnv: SLACK_WEBHOOK_URL } and set SLACK_WEBHOOK_URL in the runners' environment"
    `);
    expect(result.policy.alerts).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain('k8Jd93KdlP0qWm2nZxY7tR4s');
  });
});

describe('Schedule spec.freshness', () => {
  const schedule = (cron: string, freshness: string) => `apiVersion: cronform/v1
kind: Schedule
metadata: { name: nightly }
spec:
  cron: "${cron}"
  timezone: UTC
  freshness: ${freshness}
  job: { type: command, command: ["true"] }
`;

  it('compiles to milliseconds', () => {
    const result = compile(schedule('0 2 * * *', '26h'), 'schedules/nightly.yaml');
    expect(result.diagnostics).toEqual([]);
    expect(result.schedules[0]!.definition.freshnessMs).toBe(26 * 3_600_000);
  });

  it('warns (CF036) when it is not longer than the interval, and rejects a duration it cannot read', () => {
    expect(compile(schedule('0 * * * *', '1h'), 'schedules/hourly.yaml').diagnostics.map(formatDiagnostic)).toEqual([
      'schedules/hourly.yaml:7:14 warning CF036 freshness 1h is not longer than the 1h between slots: the freshness alert would fire between two successful runs\n  hint: allow one interval plus the job\'s runtime, e.g. 65m',
    ]);
    expect(located(schedule('0 2 * * *', '26 hours'))).toEqual(['7:14 error CF013 spec.freshness']);
  });
});
