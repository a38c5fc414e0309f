/**
 * The catalogue of validation diagnostics. Codes are part of the public contract: never reuse or
 * renumber one. CF0xx are manifest/validation problems; CF1xx–CF6xx are plan risk findings.
 */
export const DiagnosticCodes = {
  // Input and YAML
  PATH_NOT_FOUND: 'CF001',
  FILE_TOO_LARGE: 'CF002',
  YAML_SYNTAX: 'CF003',
  DUPLICATE_KEY: 'CF004',
  TOO_MANY_DOCUMENTS: 'CF005',
  ALIAS_LIMIT: 'CF006',
  NOT_A_MAPPING: 'CF007',
  FORBIDDEN_KEY: 'CF008',
  NO_MANIFESTS: 'CF009',
  // CF001–CF009 are taken: the input group continues after the JSON Schema codes.
  LINK_OUTSIDE_ROOT: 'CF017',
  // JSON Schema
  API_VERSION_OR_KIND: 'CF010',
  UNKNOWN_FIELD: 'CF011',
  INVALID_TIMEZONE: 'CF012',
  INVALID_VALUE: 'CF013',
  MISSING_FIELD: 'CF014',
  DUPLICATE_NAME: 'CF015',
  MULTIPLE_POLICIES: 'CF016',
  // Cron and time
  CRON_SYNTAX: 'CF020',
  CRON_NEVER_FIRES: 'CF021',
  CRON_AMBIGUOUS_TOKEN: 'CF022',
  CRON_DAY_MATCH_REQUIRED: 'CF023',
  INTERVAL_BELOW_MINIMUM: 'CF024',
  RUNS_PER_DAY_ABOVE_MAXIMUM: 'CF025',
  DST_IGNORED_FOR_INTERVAL: 'CF026',
  // Policies
  SKIP_NEW_WITH_CATCH_UP_ALL: 'CF030',
  CATCH_UP_ALL_WITHOUT_CAP: 'CF031',
  UNKNOWN_QUEUE: 'CF032',
  RISK_ACCEPTANCE_EXPIRED: 'CF033',
  RISK_ACCEPTANCE_TOO_LONG: 'CF034',
  // Alerts
  DUPLICATE_ALERT_TARGET: 'CF035',
  FRESHNESS_BELOW_INTERVAL: 'CF036',
  // Steps (spec.job.steps, docs/workflows.md)
  JOB_AND_STEPS: 'CF070',
  DUPLICATE_STEP_NAME: 'CF071',
  STEP_TIMEOUT_ABOVE_SCHEDULE: 'CF072',
  UNKNOWN_STEP_REFERENCE: 'CF073',
  // Workflows (docs/workflows.md)
  UNKNOWN_UPSTREAM: 'CF050',
  DEPENDENCY_CYCLE: 'CF051',
  INVALID_INPUT_TEMPLATE: 'CF052',
  UPSTREAM_DISABLED: 'CF053',
  DUPLICATE_UPSTREAM: 'CF054',
  // Retention
  RETENTION_BELOW_MINIMUM: 'CF037',
  // Secrets
  LITERAL_SECRET: 'CF040',
  SECRET_IN_COMMAND: 'CF041',
  SECRET_IN_REQUEST: 'CF042',
} as const;

export type DiagnosticCode = (typeof DiagnosticCodes)[keyof typeof DiagnosticCodes];
