/**
 * Literal credentials in manifests (SPEC §3.2): manifests live in git and plans are posted on pull
 * requests, so a secret written into `env`, `headers` or `payload` (CF040), a command argument
 * (CF041) or an http job's url or body (CF042) is already leaked. Secrets are passed by reference
 * instead, `{ fromEnv: NAME }`, resolved by the runner when the job starts. Each diagnostic points
 * at the value and names its shape and length, never the value.
 */
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { DocumentPath, ParsedDocument } from './parse.js';
import { findSecretInArguments, findSecretInText, matchNamedValue } from './secret-arguments.js';
import { isPlaceholder, isSensitiveKeyName, matchSecretValue, matchUrlCredentials, type SecretMatch } from './secret-patterns.js';
import { formatPath } from './schema-messages.js';

type Section = 'env' | 'headers' | 'payload';

export function findLiteralSecrets(doc: ParsedDocument): Diagnostic[] {
  const spec = asRecord(asRecord(doc.value)?.spec);
  const diagnostics: Diagnostic[] = [];
  const check = (section: Section, path: DocumentPath, value: unknown) => {
    const match = matchLiteralSecret(path, value, section);
    if (match) diagnostics.push(createSecretDiagnostic(doc, section, path, match));
  };
  // A workflow's steps are jobs like any other: each is checked where it is written.
  for (const [job, base] of jobsOf(asRecord(spec?.job))) {
    for (const section of ['env', 'headers'] as const) {
      for (const [name, value] of Object.entries(asRecord(job[section]) ?? {})) {
        check(section, [...base, section, name], value);
      }
    }
    diagnostics.push(...findSecretsInJob(doc, job, base));
  }
  if (spec?.payload !== undefined) walkPayload(spec.payload, ['spec', 'payload'], (path, value) => check('payload', path, value));
  return diagnostics;
}

/** `spec.job`, or each of its `steps`, with the path it is written at. */
function jobsOf(job: Record<string, unknown> | undefined): Array<[Record<string, unknown>, DocumentPath]> {
  if (!job) return [];
  if (!Array.isArray(job.steps)) return [[job, ['spec', 'job']]];
  return job.steps.flatMap((step, index): Array<[Record<string, unknown>, DocumentPath]> => {
    const record = asRecord(step);
    return record ? [[record, ['spec', 'job', 'steps', index]]] : [];
  });
}

/** What a job runs or sends: argv (also a `sh -c` string), url and body. */
function findSecretsInJob(doc: ParsedDocument, job: Record<string, unknown>, base: DocumentPath): Diagnostic[] {
  const found: Diagnostic[] = [];
  const report = (code: SecretCode, path: DocumentPath, match: SecretMatch, hint: string) => found.push(createDiagnostic(doc, code, path, match, hint));
  const command = job.command;
  if (Array.isArray(command) && command.every((argument) => typeof argument === 'string')) {
    const secret = findSecretInArguments(command);
    if (secret) report(DiagnosticCodes.SECRET_IN_COMMAND, [...base, 'command', secret.index], secret.match, COMMAND_HINT);
  }
  if (job.type === 'queue') {
    // A queue's database URL carries its password: only ever a reference, whatever it looks like.
    if (typeof job.url === 'string') {
      const { line, column } = doc.locate([...base, 'url'], 'value');
      const where = formatPath([...base, 'url']);
      found.push({ severity: 'error', code: DiagnosticCodes.LITERAL_SECRET, message: `literal database URL in ${where}: a queue's url carries credentials (${job.url.length} chars)`, file: doc.file, line, column, path: where, hint: "use url: { fromEnv: NAME } and set NAME to the queue database's URL in the runner's environment" });
    }
  } else if (typeof job.url === 'string') {
    const secret = matchUrlCredentials(job.url) ?? matchSecretValue(job.url);
    if (secret) report(DiagnosticCodes.SECRET_IN_REQUEST, [...base, 'url'], secret, REQUEST_HINT);
  }
  const body = job.body;
  if (typeof body === 'string') {
    const secret = findSecretInText(body);
    if (secret) report(DiagnosticCodes.SECRET_IN_REQUEST, [...base, 'body'], secret, REQUEST_HINT);
  } else if (asRecord(body)) {
    walkPayload(body, [...base, 'body'], (path, value) => {
      const key = path[path.length - 1];
      const secret = (typeof value === 'string' ? findSecretInText(value) : undefined) ?? matchNamedValue(typeof key === 'string' ? key : undefined, value, 'a field');
      if (secret) report(DiagnosticCodes.SECRET_IN_REQUEST, path, secret, REQUEST_HINT);
    });
  }
  return found;
}

type SecretCode = typeof DiagnosticCodes.LITERAL_SECRET | typeof DiagnosticCodes.SECRET_IN_COMMAND | typeof DiagnosticCodes.SECRET_IN_REQUEST;
const COMMAND_HINT = 'put the secret in spec.job.env as { fromEnv: NAME } and let the program read it from its environment (or $NAME in a sh -c string)';
const REQUEST_HINT = 'send credentials in spec.job.headers with { fromEnv: NAME }: the url and the body are stored and shown in plans';

/** Visits every scalar under the payload with its path (keys and list indexes). */
function walkPayload(value: unknown, path: DocumentPath, visit: (path: DocumentPath, value: unknown) => void): void {
  if (Array.isArray(value)) value.forEach((item, i) => walkPayload(item, [...path, i], visit));
  else if (asRecord(value)) for (const [key, item] of Object.entries(value as object)) walkPayload(item, [...path, key], visit);
  else visit(path, value);
}

/**
 * A value is a secret when it has a credential's shape, or when its key names a credential and it
 * holds a literal (a number counts: `password: 123456` is still a password).
 */
function matchLiteralSecret(path: DocumentPath, value: unknown, section: Section): SecretMatch | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  if (text.trim() === '' || isPlaceholder(text)) return undefined;
  const shaped = typeof value === 'string' ? matchSecretValue(text) : undefined;
  if (shaped) return shaped;
  const key = path[path.length - 1];
  if (typeof key === 'string' && isSensitiveKeyName(key)) {
    const noun = section === 'headers' ? 'header' : section === 'env' ? 'variable' : 'field';
    return { kind: `value of a ${noun} named like a credential`, redacted: `…(${text.length} chars)` };
  }
  return undefined;
}

function createSecretDiagnostic(doc: ParsedDocument, section: Section, path: DocumentPath, match: SecretMatch): Diagnostic {
  return createDiagnostic(doc, DiagnosticCodes.LITERAL_SECRET, path, match, suggestReference(section, path[path.length - 1]));
}

function createDiagnostic(doc: ParsedDocument, code: SecretCode, path: DocumentPath, match: SecretMatch, hint: string): Diagnostic {
  const { line, column } = doc.locate(path, 'value');
  const where = formatPath(path);
  return { severity: 'error', code, message: `literal secret in ${where}: ${match.kind} ${match.redacted}`, file: doc.file, line, column, path: where, hint };
}

function suggestReference(section: Section, key: string | number | undefined): string {
  if (section === 'payload') {
    return 'payload is handed to the job as plain JSON: pass secrets through spec.job.env with { fromEnv: NAME }';
  }
  // A variable name that is already a valid reference target is the natural name for the secret.
  const name = typeof key === 'string' ? key.toUpperCase().replace(/[^A-Z0-9_]/g, '_') : 'NAME';
  const target = /^[A-Z_][A-Z0-9_]*$/.test(name) ? name : 'NAME';
  return `use { fromEnv: ${target} } and set ${target} in the runner's environment`;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
