/**
 * The one mapping from the errors a user can act on to the exit codes of SPEC §5. Commands let
 * these errors go; CronformCommand.catch prints the message and exits with the code. Every module
 * imported here is free of database and plan code, because every command loads this file.
 */
import { GitHubApiError } from '../github/github-client.js';
import { ApplyLockTimeoutError, InvalidPlanError, PlanAlreadyAppliedError, StalePlanError } from '../operations/apply-errors.js';
import { EmbeddedDatabaseBusyError } from '../operations/embedded-database-busy-error.js';
import { MissingGrantError } from '../operations/missing-grant-error.js';
import { ProgressUsageError } from '../operations/progress/report-progress.js';
import { RunOperationError } from '../operations/runs/run-operation-error.js';
import { VersionNotFoundError } from '../operations/version-not-found-error.js';
import { ExitCodes } from '../shared/exit-codes.js';

type ExitCode = (typeof ExitCodes)[keyof typeof ExitCodes];

// Subclasses match their parent's entry; the first match wins.
const EXIT_CODE_BY_ERROR: ReadonlyArray<readonly [abstract new (...args: never[]) => Error, ExitCode]> = [
  // Someone applied since the plan was made, or this plan was applied already: plan again.
  [StalePlanError, ExitCodes.STALE_PLAN],
  [PlanAlreadyAppliedError, ExitCodes.STALE_PLAN],
  [ApplyLockTimeoutError, ExitCodes.LOCK_TIMEOUT],
  [InvalidPlanError, ExitCodes.ERROR],
  [RunOperationError, ExitCodes.ERROR],
  [ProgressUsageError, ExitCodes.ERROR],
  [MissingGrantError, ExitCodes.ERROR],
  [VersionNotFoundError, ExitCodes.ERROR],
  [GitHubApiError, ExitCodes.ERROR],
  // Another process has the embedded database: the message names it.
  [EmbeddedDatabaseBusyError, ExitCodes.ERROR],
];

/** The exit code of an error users can act on; undefined for a bug or an infrastructure failure. */
export function exitCodeForError(error: unknown): ExitCode | undefined {
  return EXIT_CODE_BY_ERROR.find(([errorClass]) => error instanceof errorClass)?.[1];
}
