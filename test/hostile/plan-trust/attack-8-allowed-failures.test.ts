/**
 * Attack 8: `spec.allowedFailures` turns failed items into a PARTIAL_SUCCESS, which starts no
 * failure streak and raises no alert. Setting it to 100% silences a job that fails every item, so
 * adding or raising it is a finding (CF517, MEDIUM) the gate sees; lowering it is not.
 */
import { describe, expect, it } from 'vitest';
import { planScenario, schedule } from './plan-scenario.js';

describe('attack 8: allowedFailures cannot silence failures unseen', () => {
  it('adding allowedFailures: 100% is MEDIUM and fails --fail-on medium', async () => {
    const [text, gate] = await planScenario({ sync: schedule('sync') }, { sync: schedule('sync', { allowedFailures: '100%' }) }, [['--format', 'text'], ['--fail-on', 'medium']]);
    expect(text!.stdout).toContain('[MEDIUM] CF517 allowedFailures none → 100%: runs whose items fail within it end PARTIAL_SUCCESS, without a failure or an alert');
    expect(gate!.exitCode).toBe(3);
  });

  it('raising a count is MEDIUM; lowering it is not a finding', async () => {
    const [raised] = await planScenario({ sync: schedule('sync', { allowedFailures: 10 }) }, { sync: schedule('sync', { allowedFailures: 1000 }) }, [['--format', 'text']]);
    expect(raised!.stdout).toContain('[MEDIUM] CF517 allowedFailures 10 → 1,000');
    const [lowered] = await planScenario({ sync: schedule('sync', { allowedFailures: 1000 }) }, { sync: schedule('sync', { allowedFailures: 10 }) }, [['--format', 'text']]);
    expect(lowered!.stdout).not.toContain('CF517');
  });
});
