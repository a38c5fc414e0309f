/**
 * Rules for the Policy's `alerts.targets` that JSON Schema cannot express. Target names are how
 * alerts record their deliveries, so two targets with one name would hide each other's failures
 * (CF035). A literal url that carries a credential (a Slack incoming-webhook URL is one: whoever
 * holds it can post) is already leaked once committed, like any literal secret (CF042): the hint
 * says which reference to write instead. Pure.
 */
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { ParsedDocument } from './parse.js';
import { formatPath } from './schema-messages.js';
import { matchSecretValue, matchUrlCredentials } from './secret-patterns.js';

export function checkAlertTargets(doc: Pick<ParsedDocument, 'file' | 'locate' | 'value'>): Diagnostic[] {
  const targets = (doc.value as { spec?: { alerts?: { targets?: unknown } } } | null)?.spec?.alerts?.targets;
  if (!Array.isArray(targets)) return [];
  const diagnostics: Diagnostic[] = [];
  const at = (path: Array<string | number>) => ({ file: doc.file, ...doc.locate(path, 'value'), path: formatPath(path) });
  const firstIndexByName = new Map<string, number>();
  targets.forEach((target: { name?: unknown; type?: unknown; url?: unknown }, index) => {
    if (typeof target?.name === 'string') {
      const first = firstIndexByName.get(target.name);
      if (first === undefined) firstIndexByName.set(target.name, index);
      else {
        diagnostics.push({
          severity: 'error',
          code: DiagnosticCodes.DUPLICATE_ALERT_TARGET,
          message: `alert target name "${target.name}" is already used by alerts.targets[${first}]`,
          hint: 'give each target its own name: deliveries are recorded by target name',
          ...at(['spec', 'alerts', 'targets', index, 'name']),
        });
      }
    }
    if (typeof target?.url === 'string') {
      const secret = matchUrlCredentials(target.url) ?? matchSecretValue(target.url);
      if (secret) {
        const variable = target.type === 'slack' ? 'SLACK_WEBHOOK_URL' : 'ALERT_WEBHOOK_URL';
        diagnostics.push({
          severity: 'error',
          code: DiagnosticCodes.SECRET_IN_REQUEST,
          message: `literal secret in spec.alerts.targets[${index}].url: ${secret.kind} ${secret.redacted}`,
          hint: `use url: { fromEnv: ${variable} } and set ${variable} in the runners' environment`,
          ...at(['spec', 'alerts', 'targets', index, 'url']),
        });
      }
    }
  });
  return diagnostics;
}
