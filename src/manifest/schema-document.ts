/**
 * The manifest JSON Schema as data. `schema/cronform.schema.json` is the public contract; messages and
 * suggestions read allowed field names and values from it rather than repeating them in code.
 */
import { createRequire } from 'node:module';

/** The subset of JSON Schema keywords that cronform's schema uses and the messages read. */
export interface SchemaNode {
  $ref?: string;
  title?: string;
  type?: string;
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  properties?: Record<string, SchemaNode>;
  propertyNames?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  $defs?: Record<string, SchemaNode>;
}

// `require` resolves the same relative path from src/manifest (tests) and dist/manifest (package),
// and a JSON import would fall outside tsconfig.build.json's rootDir.
export const cronformSchema = createRequire(import.meta.url)('../../schema/cronform.schema.json') as SchemaNode;

/** Follows a local `$ref` such as `#/$defs/duration`; other nodes are returned as they are. */
export function resolveSchemaNode(node: SchemaNode): SchemaNode {
  if (!node.$ref?.startsWith('#/')) return node;
  let current: unknown = cronformSchema;
  for (const segment of node.$ref.slice(2).split('/')) {
    current = (current as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current === undefined ? node : resolveSchemaNode(current as SchemaNode);
}

/** Values of `propertyName` that pick each branch of a discriminated `oneOf` (kind, job type). */
export function listDiscriminatorValues(node: SchemaNode, propertyName: string): string[] {
  return (node.oneOf ?? [])
    .map((branch) => resolveSchemaNode(branch).properties?.[propertyName]?.const)
    .filter((value): value is string => typeof value === 'string');
}

export const API_VERSION = String(resolveSchemaNode({ $ref: '#/$defs/apiVersion' }).const);
export const DOCUMENT_KINDS = listDiscriminatorValues(cronformSchema, 'kind');

/** Human wording for the schema's patterns, so users never see a raw regular expression. */
const PATTERN_WORDING: Record<string, string> = {
  '^[0-9]+(ms|s|m|h|d)$': 'a duration <n>ms|s|m|h|d, e.g. 30s or 10m',
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$': 'a name of lowercase letters, digits and "-", starting and ending with a letter or digit',
  '^[A-Z_][A-Z0-9_]*$': 'an environment variable name of uppercase letters, digits and "_", e.g. NOTION_TOKEN',
  '^[A-Za-z_][A-Za-z0-9_]*$': 'an environment variable name of letters, digits and "_", not starting with a digit',
  "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$": 'an HTTP header name such as X-Request-Id',
  '^CF[0-9]{3}$': 'a finding code such as CF101',
  '^[1-5][0-9]{2}-[1-5][0-9]{2}$': 'a status range such as "200-299"',
  '^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$': 'a schema-qualified function name of lower-case letters, digits and "_", e.g. app.enqueue_report',
  '^[a-z_][a-z0-9_]{0,62}$': 'a parameter name of lower-case letters, digits and "_", e.g. report_date',
};

export function describePattern(pattern: string): string {
  return PATTERN_WORDING[pattern] ?? `a string matching ${pattern}`;
}

/** "a string", "{ fromEnv: NAME }", … for one alternative of an `anyOf`. */
export function describeSchemaNode(node: SchemaNode): string {
  const resolved = resolveSchemaNode(node);
  if (resolved.title === 'SecretRef') return '{ fromEnv: NAME }';
  if (resolved.pattern !== undefined) return describePattern(resolved.pattern);
  return describeJsonType(resolved.type ?? 'value');
}

export function describeJsonType(type: string): string {
  const nouns: Record<string, string> = {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    object: 'a mapping',
    array: 'a list',
    null: 'null',
  };
  return nouns[type] ?? type;
}
