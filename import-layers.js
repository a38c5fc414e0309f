/**
 * Which folders of src/ may import which: imports point inward. shared < time < manifest <
 * compile; on compile sit plan (the pure diff and risk stage) and db < runner, side by side (db
 * and runner never import plan, plan never imports db or runner); import sits on compile, github
 * on plan; operations on top of those, then http (the metrics, health and dashboard server, which
 * reads through db and acts through operations), then commands. A folder may always import itself.
 *
 * One table for both checks: eslint.config.js turns it into per-folder no-restricted-imports
 * rules, and test/architecture/import-layers.test.ts scans src/ against it without eslint (and
 * checks that the rules still catch a wrong-way import). A new folder of src/ needs a row here.
 */
const BELOW_PLAN = ['shared', 'time', 'manifest', 'compile'];

/** @type {Readonly<Record<string, readonly string[]>>} */
export const ALLOWED_IMPORTS = {
  shared: [],
  // The `cronform/worker` export, loaded by a queue's worker process: it imports nothing of cronform.
  worker: [],
  time: ['shared'],
  manifest: ['shared', 'time'],
  compile: ['shared', 'time', 'manifest'],
  plan: BELOW_PLAN,
  db: BELOW_PLAN,
  runner: [...BELOW_PLAN, 'db'],
  import: BELOW_PLAN,
  github: [...BELOW_PLAN, 'plan'],
  operations: [...BELOW_PLAN, 'plan', 'db', 'runner', 'import', 'github'],
  http: [...BELOW_PLAN, 'plan', 'db', 'runner', 'operations'],
  commands: [...BELOW_PLAN, 'plan', 'db', 'runner', 'import', 'github', 'operations', 'http'],
};

export const LAYERS = Object.keys(ALLOWED_IMPORTS);

/** The folders of src/ that files of `layer` must not import. */
export function forbiddenImportsOf(layer) {
  return LAYERS.filter((other) => other !== layer && !ALLOWED_IMPORTS[layer].includes(other));
}
