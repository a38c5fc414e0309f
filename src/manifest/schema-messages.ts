/**
 * Turns one ajv error into a diagnostic a person can act on: plain words instead of keywords and
 * regular expressions, the offending value, the allowed alternatives, and a position in the file.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { splitShellWords } from '../shared/shell-words.js';
import { suggestClosest } from './did-you-mean.js';
import type { DocumentPath, ParsedDocument } from './parse.js';
import {
  describeJsonType,
  describePattern,
  describeSchemaNode,
  listDiscriminatorValues,
  type SchemaNode,
} from './schema-document.js';

/** The error as produced with ajv's `verbose` option, which adds the failing schema and data. */
export type VerboseError = ErrorObject & { parentSchema?: SchemaNode; data?: unknown };

export function createDiagnostic(
  doc: ParsedDocument,
  code: string,
  message: string,
  path: DocumentPath,
  options: { target?: 'key' | 'value'; at?: DocumentPath; hint?: string | undefined } = {},
): Diagnostic {
  const { line, column } = doc.locate(options.at ?? path, options.target ?? 'value');
  const hint = options.hint === undefined ? {} : { hint: options.hint };
  return { severity: 'error', code, message, file: doc.file, line, column, path: formatPath(path), ...hint };
}

export function describeSchemaError(error: VerboseError, doc: ParsedDocument): Diagnostic | undefined {
  const path = toDocumentPath(error.instancePath, doc.value);
  const where = formatPath(path) || 'the document';
  const got = describeValue(error.data);
  const params = error.params as Record<string, unknown>;
  const invalid = (message: string, hint?: string) =>
    createDiagnostic(doc, DiagnosticCodes.INVALID_VALUE, `${where} ${message}`, path, { hint });
  switch (error.keyword) {
    case 'required': {
      const missing = [...path, String(params.missingProperty)];
      // cron is required only without spec.after (the schema's if/then): say so where it is missing.
      const cronOfSchedule = formatPath(missing) === 'spec.cron';
      return createDiagnostic(doc, DiagnosticCodes.MISSING_FIELD, `missing required field "${formatPath(missing)}"`, missing, {
        at: path,
        target: 'key',
        ...(cronOfSchedule ? { hint: 'give the schedule a cron, or spec.after: [{ schedule: NAME }] to run after another schedule succeeds' } : {}),
      });
    }
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      const allowed = Object.keys(error.parentSchema?.properties ?? {});
      const suggestion = suggestClosest(field, allowed);
      return createDiagnostic(
        doc,
        DiagnosticCodes.UNKNOWN_FIELD,
        `unknown field "${field}" ${path.length === 0 ? 'at the top level' : `in ${where}`}`,
        [...path, field],
        {
          target: 'key',
          hint: suggestion ? `did you mean "${suggestion}"?` : `allowed fields: ${allowed.join(', ')}`,
        },
      );
    }
    case 'propertyNames': {
      const name = String(params.propertyName);
      const rule = describeSchemaNode(error.parentSchema?.propertyNames ?? {});
      return createDiagnostic(doc, DiagnosticCodes.INVALID_VALUE, `${where}: key "${name}" must be ${rule}`, [...path, name], {
        target: 'key',
      });
    }
    case 'discriminator':
      return describeDiscriminatorError(error, doc, path);
    case 'type': {
      const hint =
        params.type === 'string'
          ? suggestQuotes(error.data, error.parentSchema)
          : params.type === 'array' && path.at(-1) === 'command' && typeof error.data === 'string'
            ? suggestArgv(error.data)
            : undefined;
      return invalid(`must be ${describeJsonType(String(params.type))} (got ${typeName(error.data)})`, hint);
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const suggestion = typeof error.data === 'string' ? suggestClosest(error.data, allowed) : undefined;
      return invalid(`must be one of ${allowed.join(', ')} (got ${got})`, suggestion && `did you mean "${suggestion}"?`);
    }
    case 'const':
      return invalid(`must be ${describeValue(params.allowedValue)} (got ${got})`);
    case 'pattern':
      return invalid(`must be ${describePattern(String(params.pattern))} (got ${got})`);
    case 'format':
      return invalid(`must be ${params.format === 'date' ? 'a date YYYY-MM-DD' : 'an absolute URL such as https://example.com/hook'} (got ${got})`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return invalid(`must be ${String(params.comparison)} ${String(params.limit)} (got ${got})`);
    case 'minItems':
      return invalid(`must have at least ${String(params.limit)} ${params.limit === 1 ? 'item' : 'items'}`);
    case 'minLength':
      return invalid(params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`);
    case 'maxLength':
      return invalid(`must be at most ${String(params.limit)} characters long (got ${String((error.data as string).length)})`);
    default:
      return invalid(error.message ?? `is invalid (${error.keyword})`);
  }
}

/** One message for a value that matches none of the alternatives (`string` or `{ fromEnv }`, …). */
export function describeAnyOfError(error: VerboseError, doc: ParsedDocument): Diagnostic {
  const path = toDocumentPath(error.instancePath, doc.value);
  const alternatives = (error.parentSchema?.anyOf ?? []).map(describeSchemaNode);
  const message = `${formatPath(path)} must be ${alternatives.join(' or ')} (got ${typeName(error.data)})`;
  return createDiagnostic(doc, DiagnosticCodes.INVALID_VALUE, message, path, {
    hint: alternatives.includes('a string') ? suggestQuotes(error.data) : undefined,
  });
}

function describeDiscriminatorError(error: VerboseError, doc: ParsedDocument, path: DocumentPath): Diagnostic {
  const tag = String((error.params as { tag?: unknown }).tag);
  const allowed = listDiscriminatorValues(error.parentSchema ?? {}, tag);
  const tagPath = [...path, tag];
  const value = (error.data as Record<string, unknown> | undefined)?.[tag];
  if (value === undefined) {
    return createDiagnostic(doc, DiagnosticCodes.MISSING_FIELD, `missing required field "${formatPath(tagPath)}"`, tagPath, {
      at: path,
      target: 'key',
      hint: `${tag} is one of: ${allowed.join(', ')}`,
    });
  }
  const suggestion = typeof value === 'string' ? suggestClosest(value, allowed) : undefined;
  const message = `${formatPath(tagPath)} must be one of ${allowed.join(', ')} (got ${describeValue(value)})`;
  return createDiagnostic(doc, DiagnosticCodes.INVALID_VALUE, message, tagPath, {
    hint: suggestion && `did you mean "${suggestion}"?`,
  });
}

/** JSON pointer → path; a numeric segment is an index only where the data there is a list. */
export function toDocumentPath(pointer: string, value: unknown): DocumentPath {
  const path: Array<string | number> = [];
  let current = value;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const key = Array.isArray(current) ? Number(segment) : segment;
    path.push(key);
    current = (current as Record<string | number, unknown> | undefined)?.[key];
  }
  return path;
}

/** `spec.job.command[0]`, the form diagnostics and messages use. */
export function formatPath(path: DocumentPath): string {
  return path.reduce<string>(
    (text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment),
    '',
  );
}

/**
 * YAML reads `timezone: 9` or `MODE: on`… as a number or boolean; quoting keeps it a string. The
 * suggestion must itself validate: where the string has a pattern the quoted value fails
 * (`timeout: 90`, a duration needs its unit), a number gets its seconds (`"90s"`) and nothing that
 * fails is suggested.
 */
function suggestQuotes(value: unknown, schema?: SchemaNode): string | undefined {
  if (typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const text = String(value);
  const pattern = schema?.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  if (!pattern || pattern.test(text)) return `write it in quotes: "${text}"`;
  if (typeof value === 'number' && pattern.test(`${text}s`)) return `write it with its unit, in quotes: "${text}s" (or ms, m, h, d)`;
  return undefined;
}

/**
 * A command written as one string (`command: "node jobs/x.js --date {{businessDate}}"`): the argv
 * the words make, as a YAML flow list to paste, when quoting is the only shell syntax it uses;
 * otherwise the explicit shell form, since cronform never runs a shell on its own.
 */
function suggestArgv(command: string): string {
  // `{{businessDate}}` is cronform's placeholder, not shell brace syntax: kept aside while splitting.
  const placeholders: string[] = [];
  const masked = command.replace(/\{\{[^{}]*\}\}/g, (placeholder) => `cronformplaceholder${placeholders.push(placeholder) - 1}x`);
  const split = splitShellWords(masked);
  const words = split.words.map((word) => word.replace(/cronformplaceholder(\d+)x/g, (_, index: string) => placeholders[Number(index)] ?? ''));
  if (split.shellSyntax.length === 0 && words.length > 0) return `write the program and each argument as an item: command: [${words.map(flowItem).join(', ')}]`;
  const uses = split.shellSyntax.length > 0 ? `it uses ${split.shellSyntax.join(', ')}, so ` : '';
  return `write the program and each argument as an item; ${uses}to run it through a shell on purpose: command: [sh, -c, ${JSON.stringify(command)}]`;
}

/** A word as a YAML flow-list item that reads back as that string (numbers, booleans, `{{…}}` quoted). */
function flowItem(word: string): string {
  const plain = /^[A-Za-z_./][A-Za-z0-9_./=@%+-]*$|^--?[A-Za-z][A-Za-z0-9_./=@%+-]*$/.test(word);
  return plain && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(word) ? word : JSON.stringify(word);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return typeof value;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeName(value);
}
