/**
 * `cronform diff` named a version the schedule does not have: exit 1 with the message. Apart from
 * history.ts so that every command can map it without loading the database code behind it.
 */
export class VersionNotFoundError extends Error {}
