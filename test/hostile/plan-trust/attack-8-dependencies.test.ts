/**
 * Attack 8: `spec.after` makes a schedule run once per SUCCESS of another, whatever its own cron
 * says. A daily job pointed at a minutely upstream runs 1,440 times a day: its frequency is its
 * upstream's, judged like a cron change (CF101/CF106) and named in the headline; and any change of
 * what a schedule follows moves when it runs, at least MEDIUM (CF304).
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

const ticker = schedule('ticker', { cron: '* * * * *' });
const follows = (...names: string[]) => names.map((name) => ({ schedule: name, status: 'SUCCESS' }));

describe('attack 8: a dependency cannot hide how often a job runs', () => {
  it('a daily schedule that now follows a minutely one (keeping its cron) is HIGH, 1 → 1,440 runs/day', async () => {
    const base = { ticker, purge: schedule('purge') };
    const [text, gate] = await planScenario(base, { ticker, purge: schedule('purge', { after: follows('ticker') }) }, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF101 runs/day 1 → 1,440');
    expect(text!.stdout).toMatch(/~ purge \[HIGH\] runs\/day 1 → 1,440; follows ticker/);
    expect(gate!.exitCode).toBe(3);
  });

  it('dropping the cron for a minutely upstream is HIGH too, not a drop to no runs', async () => {
    const base = { ticker, purge: schedule('purge') };
    const [text, gate] = await planScenario(base, { ticker, purge: schedule('purge', { cron: undefined, after: follows('ticker') }) }, [['--format', 'text'], ['--fail-on', 'high']]);
    expect(text!.stdout).toContain('[HIGH] CF101 runs/day 1 → 1,440');
    expect(gate!.exitCode).toBe(3);
  });

  it('a new dependent of a minutely schedule says how often it runs', async () => {
    const [text] = await planScenario({ ticker }, { ticker, dep: schedule('dep', { cron: undefined, after: follows('ticker') }) }, [['--format', 'text']]);
    expect(text!.stdout).toContain('+ dep new: follows ticker (one run per SUCCESS, up to 1,440 runs/day)');
  });

  it('following another upstream at the same rate is MEDIUM (CF304)', async () => {
    const base = { a: schedule('a'), b: schedule('b'), dep: schedule('dep', { cron: undefined, after: follows('a') }) };
    const head = { ...base, dep: schedule('dep', { cron: undefined, after: follows('b') }) };
    const [text, gate] = await planScenario(base, head, [['--format', 'text'], ['--fail-on', 'medium']]);
    expect(text!.stdout).toContain('[MEDIUM] CF304 now runs after b (was after a)');
    expect(gate!.exitCode).toBe(3);
  });
});
