/** The one table of exit codes (SPEC §5). */
export const ExitCodes = {
  SUCCESS: 0,
  ERROR: 1,
  CHANGES_PRESENT: 2,
  RISK_NOT_ACCEPTED: 3,
  STALE_PLAN: 4,
  LOCK_TIMEOUT: 5,
} as const;
