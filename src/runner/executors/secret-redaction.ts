import type { RunJobDefinition } from '../../compile/definition.js';
import { fromEnvReferencesOf } from './missing-secrets.js';

/**
 * Removes the values a job received by reference (`{ fromEnv: NAME }`) from what the runner keeps
 * of it: output tails, the http response body, error texts. Those are stored in `run_attempts`,
 * which the plan role can read, and printed by `runs show`/`logs`; a job that echoes its token,
 * or a server that reflects a header, must not turn a reference into a stored literal.
 *
 * Each occurrence becomes `[redacted:NAME]`, NAME being the runner's variable. Matching is on
 * exact bytes, in the forms a value is usually echoed in: as is, trimmed (a secret file's
 * trailing newline), the credential after an auth scheme (`Bearer xyz` → `xyz`), JSON-escaped and
 * percent-encoded. Other encodings (base64 of a part, hex) are not recognised, nor a part the job
 * chose to print (the first characters of a token, to identify it) or cut off by its death.
 *
 * Values shorter than MIN_REDACTED_LENGTH characters are not redacted: a one- to three-character
 * value is no credential, and replacing every "a" or "yes" would destroy the output it hides in.
 */
export const MIN_REDACTED_LENGTH = 4;

interface SecretForm {
  name: string;
  bytes: Buffer;
}

/** One stretch of output: raw bytes, or a marker standing for one or more overlapping secrets. */
export type OutputPiece = { raw: Buffer; start: number } | { marker: Buffer; start: number; end: number };

export class SecretRedactor {
  private readonly forms: readonly SecretForm[];

  constructor(secrets: ReadonlyArray<{ name: string; value: string }>) {
    const forms = new Map<string, SecretForm>();
    for (const { name, value } of secrets) {
      if (value.trim().length < MIN_REDACTED_LENGTH) continue;
      for (const form of echoedForms(value)) {
        if (form.length >= MIN_REDACTED_LENGTH && !forms.has(form)) forms.set(form, { name, bytes: Buffer.from(form, 'utf8') });
      }
    }
    this.forms = [...forms.values()];
  }

  get isEmpty(): boolean {
    return this.forms.length === 0;
  }

  /**
   * Bytes a window of output must keep before its start so that a secret straddling the start is
   * seen whole: the longest form minus one.
   */
  get lookbehindBytes(): number {
    return this.forms.reduce((longest, form) => Math.max(longest, form.bytes.length - 1), 0);
  }

  redactText(text: string): string {
    if (this.isEmpty) return text;
    return Buffer.concat(this.split(Buffer.from(text, 'utf8')).map(pieceBytes)).toString('utf8');
  }

  /**
   * The bytes cut into raw stretches and markers. Every occurrence of every form is found, and
   * overlapping or touching occurrences are merged into one marker naming each variable once: a
   * leftmost-first scan would leave the tail of a second secret that starts inside the first.
   */
  split(bytes: Buffer): OutputPiece[] {
    const spans: Array<{ start: number; end: number; names: string[] }> = [];
    for (const form of this.forms) {
      for (let at = bytes.indexOf(form.bytes); at >= 0; at = bytes.indexOf(form.bytes, at + 1)) {
        spans.push({ start: at, end: at + form.bytes.length, names: [form.name] });
      }
    }
    spans.sort((a, b) => a.start - b.start);
    const merged: typeof spans = [];
    for (const span of spans) {
      const last = merged[merged.length - 1];
      if (last && span.start <= last.end) {
        last.end = Math.max(last.end, span.end);
        for (const name of span.names) if (!last.names.includes(name)) last.names.push(name);
      } else {
        merged.push({ ...span, names: [...span.names] });
      }
    }
    const pieces: OutputPiece[] = [];
    let cursor = 0;
    for (const span of merged) {
      if (span.start > cursor) pieces.push({ raw: bytes.subarray(cursor, span.start), start: cursor });
      pieces.push({ marker: Buffer.from(`[redacted:${span.names.join(',')}]`), start: span.start, end: span.end });
      cursor = span.end;
    }
    if (cursor < bytes.length) pieces.push({ raw: bytes.subarray(cursor), start: cursor });
    return pieces;
  }
}

export const NO_SECRETS = new SecretRedactor([]);

export function pieceBytes(piece: OutputPiece): Buffer {
  return 'raw' in piece ? piece.raw : piece.marker;
}

/** The values of the job's `{ fromEnv }` references that are set in the runner's environment. */
export function createJobRedactor(job: RunJobDefinition, runnerEnv: NodeJS.ProcessEnv): SecretRedactor {
  const secrets: Array<{ name: string; value: string }> = [];
  for (const name of fromEnvReferencesOf(job)) {
    const secret = runnerEnv[name];
    if (secret !== undefined) secrets.push({ name, value: secret });
  }
  return secrets.length === 0 ? NO_SECRETS : new SecretRedactor(secrets);
}

function echoedForms(value: string): string[] {
  const trimmed = value.trim();
  const forms = [value, trimmed, JSON.stringify(trimmed).slice(1, -1), encodeURIComponent(trimmed)];
  const credential = /^(?:Bearer|Basic|Token|Bot|Digest)\s+(\S+)$/i.exec(trimmed)?.[1];
  if (credential) forms.push(credential);
  return forms;
}
