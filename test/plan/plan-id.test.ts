import { describe, expect, it } from 'vitest';
import { digestOf } from '../../src/compile/digest.js';
import { computePlanId } from '../../src/plan/plan-id.js';
import type { Plan } from '../../src/plan/plan-types.js';
import { makeChange, makePlan, makeRealisticPlan } from './render-fixtures.js';

type Content = Omit<Plan, 'planId' | 'createdAt'>;

/** The definition computePlanId streams: the digest of the whole canonical text. */
const wholeDigestId = (content: Content) => digestOf(content).replace('sha256:', 'plan-').slice(0, 29);

function contentOf(plan: Plan): Content {
  const { planId: _planId, createdAt: _createdAt, ...content } = plan;
  return content;
}

/** [a, <hole>, b]: JSON cannot say it, but an array built in code can have one. */
function withHole<T>([first, second]: T[]): T[] {
  const items: T[] = [first!];
  items[2] = second!;
  return items;
}

describe('computePlanId', () => {
  const realistic = contentOf(makeRealisticPlan());
  const cases: Array<{ why: string; content: Content }> = [
    { why: 'a realistic plan', content: realistic },
    { why: 'an empty plan', content: contentOf(makePlan()) },
    { why: 'non-ASCII text and characters JSON escapes', content: { ...realistic, changes: [makeChange({ action: 'create', name: 'näme-"quoted"\\-→-\u0001-😀' })] } },
    { why: 'an undefined member is left out', content: { ...realistic, policyChange: undefined } as unknown as Content },
    { why: 'a hole in the changes', content: { ...realistic, changes: withHole([makeChange({ action: 'create', name: 'a' }), makeChange({ action: 'create', name: 'b' })]) } },
    { why: 'an edited file with an extra member', content: { ...realistic, extra: { z: 1, a: [null, undefined] } } as unknown as Content },
    { why: 'no members at all', content: {} as Content },
  ];

  it.each(cases)('is the digest of the whole canonical text: $why', ({ content }) => {
    expect(computePlanId(content)).toBe(wholeDigestId(content));
  });

  it('keeps the id format: plan- and 24 hex digits', () => {
    expect(computePlanId(realistic)).toMatch(/^plan-[0-9a-f]{24}$/);
  });
});
