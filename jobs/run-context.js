// Shared by the example jobs: cronform hands every run its context in CRONFORM_* variables
// (SPEC §7), so a job needs no database access to know which slot it is running for.
const CONTEXT_VARIABLES = {
  runId: 'CRONFORM_RUN_ID',
  schedule: 'CRONFORM_SCHEDULE',
  scheduledFor: 'CRONFORM_SCHEDULED_FOR',
  businessDate: 'CRONFORM_BUSINESS_DATE',
  idempotencyKey: 'CRONFORM_IDEMPOTENCY_KEY',
  attempt: 'CRONFORM_ATTEMPT',
  trigger: 'CRONFORM_TRIGGER',
};

export function readRunContext(env = process.env) {
  const context = {};
  for (const [field, variable] of Object.entries(CONTEXT_VARIABLES)) context[field] = env[variable] ?? null;
  context.payload = parsePayload(env.CRONFORM_PAYLOAD);
  return context;
}

/** `--name value` pairs of argv, e.g. `--date 2025-01-31`. */
export function readOptions(argv = process.argv.slice(2)) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    if (name?.startsWith('--')) options[name.slice(2)] = argv[i + 1]?.startsWith('--') ? true : (argv[++i] ?? true);
  }
  return options;
}

/** Prints one JSON line, so run logs stay machine-readable. Secrets are reported as set or not. */
export function reportRun(job, details) {
  console.log(JSON.stringify({ job, context: readRunContext(), ...details }));
}

export function describeSecret(name, env = process.env) {
  return env[name] ? 'set' : 'missing';
}

function parsePayload(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { unparsable: text.length };
  }
}
