/**
 * The refusals of apply, each with its own exit code (src/commands/error-exit-codes.ts). Kept apart
 * from apply.ts so that every command can map them without loading the database code behind it.
 */
export class StalePlanError extends Error {
  constructor(readonly moved: Array<{ name: string; detail: string }>) {
    super(`the plan is stale: ${moved.map((m) => `${m.name} ${m.detail}`).join('; ')}. Run plan again.`);
  }
}

export class PlanAlreadyAppliedError extends Error {
  constructor(readonly planId: string) {
    super(`plan ${planId} was already applied; run plan again to see what is left to change`);
  }
}

export class ApplyLockTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`another apply holds the lock; gave up after ${Math.round(timeoutMs / 1000)}s (--lock-timeout)`);
  }
}

export class InvalidPlanError extends Error {}
