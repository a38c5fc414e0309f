/**
 * Codes of the problems `cronform import --from crontab` reports. They are separate from the
 * manifest catalogue (`shared/diagnostic-codes.ts`) because they point at crontab lines, not at
 * manifests; like those, they are stable: never reuse or renumber one.
 */
export const ImportCodes = {
  REBOOT_UNSUPPORTED: 'CT001',
  PERCENT_STDIN: 'CT002',
  TIMEZONE_MISSING: 'CT003',
  TIMEZONE_INVALID: 'CT004',
  MALFORMED_LINE: 'CT005',
  SECRET_IN_COMMAND: 'CT006',
  UNKNOWN_MACRO: 'CT007',
  INVALID_MANIFEST: 'CT008',
  // Warnings: the import succeeded, but something behaves differently from cron.
  MAIL_IGNORED: 'CT010',
  SECRET_ENV_REFERENCED: 'CT011',
  SYSTEM_USER_IGNORED: 'CT012',
  RELATIVE_PROGRAM: 'CT013',
  ENV_IGNORED: 'CT014',
  OWN_VARIABLE_RENAMED: 'CT015',
  // Writing
  FILE_EXISTS: 'CT020',
} as const;
