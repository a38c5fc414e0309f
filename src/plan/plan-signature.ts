/**
 * Signed plan files. A plan file's digests and id tell apply that the file is consistent, not who
 * wrote it: someone who can edit it between review and apply can change a job and recompute them
 * (an attacker review did). With `CRONFORM_PLAN_KEY` set where plans are written (CI), `plan --out`
 * adds an HMAC-SHA256 of the whole plan under that key; with it set where plans are applied,
 * `apply plan.json` refuses a file without a valid one. The key never appears in the file.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../compile/digest.js';
import type { Plan } from './plan-types.js';

export const PLAN_KEY_ENV = 'CRONFORM_PLAN_KEY';
/** Shorter keys are refused: a guessable key signs anything. */
export const PLAN_KEY_MIN_LENGTH = 32;
const PREFIX = 'hmac-sha256:';

export type SignedPlan = Plan & { signature?: string };

export class PlanSignatureError extends Error {}

function checkKey(key: string): void {
  if (key.length < PLAN_KEY_MIN_LENGTH) throw new PlanSignatureError(`${PLAN_KEY_ENV} must be at least ${PLAN_KEY_MIN_LENGTH} characters (a random secret, e.g. \`openssl rand -hex 32\`)`);
}

function signatureOf(plan: Plan, key: string): string {
  // Every member but the signature itself, in canonical JSON: planId and createdAt included.
  const { signature: _ignored, ...unsigned } = plan as SignedPlan;
  return PREFIX + createHmac('sha256', key).update(canonicalJson(unsigned)).digest('hex');
}

/** The plan with its signature under `key`. */
export function signPlan(plan: Plan, key: string): SignedPlan {
  checkKey(key);
  return { ...plan, signature: signatureOf(plan, key) };
}

/**
 * The plan without its signature, once checked: with a key, a missing or wrong signature throws;
 * without one, a signed plan cannot be checked (`checked: false`) and is taken as any other.
 */
export function verifyPlanSignature(plan: SignedPlan, key: string | undefined): { plan: Plan; checked: boolean } {
  const { signature, ...unsigned } = plan;
  if (key === undefined || key === '') return { plan: unsigned, checked: false };
  checkKey(key);
  if (typeof signature !== 'string') throw new PlanSignatureError(`the plan file is not signed, and ${PLAN_KEY_ENV} is set here: plan it where ${PLAN_KEY_ENV} is set too`);
  const expected = Buffer.from(signatureOf(unsigned, key));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new PlanSignatureError(`the plan file's signature does not match its content under ${PLAN_KEY_ENV} (edited after it was planned, or signed with another key)`);
  }
  return { plan: unsigned, checked: true };
}
