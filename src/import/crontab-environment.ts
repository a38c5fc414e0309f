/**
 * The environment lines of a crontab (`NAME=value`), applied in order: each job sees the settings
 * above it, as in Vixie cron and cronie. Variables cron itself reads configure the import (zone,
 * shell, random delay); mail settings are dropped with a warning; the rest become job environment,
 * except that a value that looks like a credential is replaced by `{ fromEnv: NAME }`.
 *
 * A reference reads the runner's environment, and the runner's DATABASE_URL, CRONFORM_* and PG*
 * variables are cronform's own configuration: `{ fromEnv: DATABASE_URL }` would hand the job
 * cronform's database, not the one the crontab meant. Those references read `CRONTAB_<NAME>`
 * instead (the job still sees `<NAME>`), with a warning (CT015) saying which variable to set.
 */
import type { StringOrSecretRef } from '../manifest/schema-types.js';
import { isSensitiveKeyName, matchSecretValue } from '../manifest/secret-patterns.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { isCronformConfiguration } from '../shared/own-configuration.js';
import { isValidTimezone, suggestTimezone } from '../time/zone.js';
import type { CrontabLine } from './crontab-lines.js';
import { ImportCodes } from './import-codes.js';

/** Where a reference to one of cronform's own variables (isCronformConfiguration) reads from instead: a name the runner does not use itself. */
const OWN_VARIABLE_PREFIX = 'CRONTAB_';

/** Variables cron itself reads; they configure the import instead of becoming job environment. */
const CRON_VARIABLES = new Set(['CRON_TZ', 'SHELL', 'MAILTO', 'MAILFROM', 'RANDOM_DELAY']);
const DEFAULT_SHELL = '/bin/sh';

export interface Environment {
  /** Job environment in assignment order; secrets already replaced by references. */
  variables: Map<string, StringOrSecretRef>;
  cronTz: ZoneSetting | null;
  tz: ZoneSetting | null;
  shell: string;
  randomDelayMinutes: number | null;
}

export interface ZoneSetting {
  zone: string;
  valid: boolean;
}

export function createEnvironment(): Environment {
  return { variables: new Map(), cronTz: null, tz: null, shell: DEFAULT_SHELL, randomDelayMinutes: null };
}

export function applyEnvironmentLine(entry: Extract<CrontabLine, { kind: 'env' }>, env: Environment, diagnostics: Diagnostic[], location: Pick<Diagnostic, 'file' | 'line' | 'column'>): void {
  const { name, value } = entry;
  if (name === 'CRON_TZ' || name === 'TZ') {
    const setting = value === '' ? null : { zone: value, valid: isValidTimezone(value) };
    if (setting && !setting.valid) diagnostics.push(invalidZone(value, name, location));
    if (name === 'CRON_TZ') env.cronTz = setting;
    else env.tz = setting;
  }
  if (name === 'MAILTO' || name === 'MAILFROM') {
    diagnostics.push({
      severity: 'warning',
      code: ImportCodes.MAIL_IGNORED,
      message: `${name} ignored: cronform does not mail job output`,
      hint: 'runs keep their output tails (`cronform runs`); for failure alerts add a target to the Policy\'s alerts.targets (webhook or slack; README, Alerts)',
      ...location,
    });
    return;
  }
  if (name === 'SHELL') {
    env.shell = value || DEFAULT_SHELL;
    return;
  }
  if (name === 'RANDOM_DELAY') {
    env.randomDelayMinutes = /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : null;
    if (env.randomDelayMinutes === null && value !== '' && value !== '0') {
      diagnostics.push({ severity: 'warning', code: ImportCodes.ENV_IGNORED, message: `RANDOM_DELAY=${JSON.stringify(value)} ignored: expected whole minutes`, ...location });
    }
    return;
  }
  if (CRON_VARIABLES.has(name)) return;
  if (value === '') {
    env.variables.delete(name);
    return;
  }
  // A literal that looks like a credential is never written: manifests live in git.
  const secret = isSensitiveKeyName(name) ? { kind: 'a variable named like a credential' } : matchSecretValue(value);
  if (secret) {
    const upper = name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
    const reference = isCronformConfiguration(upper) ? `${OWN_VARIABLE_PREFIX}${upper}` : upper;
    env.variables.set(name, { fromEnv: reference });
    if (reference !== upper) {
      diagnostics.push({
        severity: 'warning',
        code: ImportCodes.OWN_VARIABLE_RENAMED,
        message: `${name} looks like a secret (${secret.kind}) and is also a variable cronform itself reads: written as { fromEnv: ${reference} }, so the job never receives the runner's own ${upper}; its value is not copied`,
        hint: `set ${reference} in the runner's environment to the value the job needs`,
        ...location,
      });
      return;
    }
    diagnostics.push({
      severity: 'warning',
      code: ImportCodes.SECRET_ENV_REFERENCED,
      message: `${name} looks like a secret (${secret.kind}): written as { fromEnv: ${reference} }, its value is not copied`,
      hint: `set ${reference} in the runner's environment (or your secret store) before applying`,
      ...location,
    });
    return;
  }
  env.variables.set(name, value);
}

export function invalidZone(zone: string, where: string, location: Pick<Diagnostic, 'file' | 'line' | 'column'>): Diagnostic {
  const hint = suggestTimezone(zone);
  return {
    severity: 'error',
    code: ImportCodes.TIMEZONE_INVALID,
    message: `${where}=${JSON.stringify(zone)} is not an IANA time zone; jobs scheduled in it are not converted`,
    ...(hint ? { hint } : {}),
    ...location,
  };
}

