/**
 * Attack 6: a lone CR ended the markdown table and forged a heading; bidi overrides, zero-width
 * characters and ANSI escapes reached the comment and the terminal as they were.
 */
import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters } from '../../../src/shared/visible-text.js';
import { planScenario, schedule } from './plan-scenario.js';

describe('attack 6: user text cannot forge the plan', () => {
  it('writes CR, U+2028, bidi, zero-width and ESC visibly, and a hidden character in the job is HIGH', async () => {
    const forged = 'ok\r# cronform plan: no changes\r**approved by** @admin\u2028x';
    // The same text as an accepted finding's reason, and as a changed description of an existing schedule.
    // Within the Policy's acceptance cap (90 days by default): the command plans at the system time.
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const riskAccepted = [{ code: 'CF502', reason: forged, until }];
    const base = { notes: schedule('notes', {}, { description: 'short' }) };
    const head = {
      notes: schedule('notes', {}, { description: forged, riskAccepted }),
      report: schedule('report', {
        job: { type: 'command', command: ['node', 'jobs/daily\u200b-report.js', '\u202Esj.tropre\u202C', '\u001b[2J'], env: { MODE: 'a\rb' } },
      }, { description: forged, owner: 'team\u001b]0;pwned\u0007', riskAccepted }),
    };
    const [markdown, text, gate] = await planScenario(base, head, [['--format', 'markdown'], ['--format', 'text'], ['--fail-on', 'high']]);
    for (const output of [markdown!.stdout, text!.stdout]) {
      expect(hasHiddenCharacters(output.replace(/\n/g, ''))).toBe(false);
      expect(output).toContain('daily\\u200B-report.js');
      expect(output).toContain('\\u202Esj.tropre\\u202C');
      expect(output).toMatch(/\\u001b\[2J/i);
    }
    expect(markdown!.stdout).not.toMatch(/^# cronform plan/m);
    expect(markdown!.stdout).toContain('ok\\\\r\\# cronform plan: no changes\\\\r\\*\\*approved by\\*\\* @admin\\\\u2028x');
    expect(text!.stdout).toContain('ok\\r# cronform plan: no changes\\r**approved by** @admin\\u2028x');
    expect(markdown!.stdout).toMatch(/\| \*\*HIGH\*\* \| CF513 \| report \|/);
    expect(text!.stdout).toContain('[HIGH] CF513');
    expect(gate!.exitCode).toBe(3);
  });
});
