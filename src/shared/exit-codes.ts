/** The one table of exit codes (SPEC §5). */
export const ExitCodes = {
  SUCCESS: 0,
  ERROR: 1,
  CHANGES_PRESENT: 2,
  RISK_NOT_ACCEPTED: 3,
  STALE_PLAN: 4,
  LOCK_TIMEOUT: 5,
  /**
   * `status --check` found cronform unhealthy (no live runner, a CRITICAL schedule overdue). Not 1,
   * so that a probe can tell "checked: cronform is down" from "could not check" (1: database
   * unreachable, bad flag); both deserve a page, with different first steps.
   */
  UNHEALTHY: 6,
  /** `guard --affects N` inside a job: more than `safety.maxAffected`; the job must not act (SPEC §8a). */
  SAFETY_THRESHOLD: 7,
  /** `guard` inside a dry run (CRONFORM_DRY_RUN=1): recorded; the job must not act. */
  DRY_RUN: 8,
} as const;
