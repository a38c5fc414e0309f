/**
 * A database role without the grants a command needs (SQLSTATE 42501, "permission denied for table
 * runners"): told in one line with the fix, instead of a driver error and its stack. The plan job in
 * CI runs with a read-only role (docs/gitops.md), so this is the first thing a new setup meets.
 */
const INSUFFICIENT_PRIVILEGE = '42501';

export class MissingGrantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingGrantError';
  }
}

/** The first error in `error`'s cause chain that carries SQLSTATE 42501, if any. */
function findPermissionDenied(error: unknown): Error | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth += 1) {
    if ((current as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE) return current;
  }
  return undefined;
}

/** `error` as a MissingGrantError when a permission was denied; otherwise `error` itself. */
export function explainMissingGrant(error: unknown, command: string): unknown {
  const denied = findPermissionDenied(error);
  if (!denied) return error;
  const object = /permission denied for (table|relation|schema|sequence|function) ("?[\w.]+"?)/i.exec(denied.message);
  const what = object ? ` (permission denied for ${object[1]!.toLowerCase()} ${object[2]})` : '';
  return new MissingGrantError(
    `the database role cannot read what ${command} needs${what}: grant it USAGE and SELECT on the schemas public and drizzle (docs/gitops.md, "A read-only role for planning")`,
  );
}
