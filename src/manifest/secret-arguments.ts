/**
 * Credentials written where a program or a server reads them: command arguments (also inside a
 * `sh -c` string), and an http job's url and body. Beyond the shapes of `secret-patterns.ts`, these
 * carry credentials by position: `--password=x`, `--token x`, `password=x`, `Authorization: Bearer x`,
 * `mysql -px`, `postgres://u:x@host` inside a longer string.
 *
 * A reference is not a value: `$VAR`, `${VAR}`, `$(cat file)` and `{{placeholders}}` are left alone,
 * and so are options naming where a secret is (`--password-file`, `--token-url`).
 */
import { isPlaceholder, isSensitiveKeyName, matchSecretValue, matchUrlCredentials, type SecretMatch } from './secret-patterns.js';

/** Programs whose `-p<password>` (no space) is a password, unlike `mkdir -p` or `-p8080`. */
const MYSQL_CLIENTS = new Set(['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlcheck', 'mysqlshow', 'mariadb', 'mariadb-dump', 'mariadb-admin']);
/**
 * Programs whose `--password` takes no separate value: psql's forces a prompt, mysql's takes one
 * only after `=`. The word after it is a database name, not a password.
 */
const PROMPTING_PASSWORD = new Set([
  ...MYSQL_CLIENTS, 'psql', 'pg_dump', 'pg_dumpall', 'pg_restore', 'pg_basebackup', 'createdb', 'dropdb', 'vacuumdb',
  'reindexdb', 'clusterdb', 'createuser', 'dropuser', 'pgbench',
]);
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>]+/gi;
const FLAG = /^--?([A-Za-z][A-Za-z0-9_.-]*)$/;
const FLAG_WITH_VALUE = /^--?([A-Za-z][A-Za-z0-9_.-]*)=(.*)$/s;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_.-]*)=(.*)$/s;
const HEADER_LINE = /^([A-Za-z][A-Za-z0-9-]*):\s*(.+)$/s;

/** The first argument holding a credential, with its index; each argument is also read as shell words. */
export function findSecretInArguments(args: readonly string[]): { index: number; match: SecretMatch } | undefined {
  const programs = new Set<string>();
  for (const [index, argument] of args.entries()) {
    const words = splitWords(argument);
    for (const word of words) programs.add(basename(word));
    const match = matchSecretValue(argument) ?? matchWhole(argument) ?? matchWords(words, programs);
    if (match) return { index, match };
    // `--token x` as two arguments: the value is the next one, and that is where the error points.
    const next = args[index + 1];
    const flag = words.length === 1 ? FLAG.exec(argument)?.[1] : undefined;
    if (flag && next !== undefined && takesSeparateValue(flag, next, programs)) {
      const named = matchSecretValue(next) ?? matchNamedValue(flag, next, 'an option');
      if (named) return { index: index + 1, match: named };
    }
  }
  return undefined;
}

/** `--password=two words`, `Authorization: Bearer x`: forms that hold spaces, read on the whole argument. */
function matchWhole(text: string): SecretMatch | undefined {
  const withValue = FLAG_WITH_VALUE.exec(text) ?? ASSIGNMENT.exec(text);
  if (withValue) return matchNamedValue(withValue[1], withValue[2], 'an option');
  const header = HEADER_LINE.exec(text);
  if (!header || header[2]!.startsWith('//')) return undefined;
  return (isSensitiveKeyName(header[1]!) ? matchSecretValue(header[2]!) : undefined) ?? matchNamedValue(header[1], header[2], 'a header');
}

/** The word after a flag is its value unless it is another flag or the program takes none there. */
function takesSeparateValue(flag: string, following: string, programs: ReadonlySet<string>): boolean {
  if (following.startsWith('-')) return false;
  return flag.toLowerCase() !== 'password' || ![...PROMPTING_PASSWORD].some((program) => programs.has(program));
}

/** A free text (an http body sent as a string): JSON members, form fields and words. */
export function findSecretInText(text: string): SecretMatch | undefined {
  const shaped = matchSecretValue(text);
  if (shaped) return shaped;
  const json = findSecretInJsonText(text);
  if (json) return json;
  const fields = text.includes('&') || /^[^\s=]+=[^\s]*$/.test(text.trim()) ? text.trim().split('&') : [];
  return matchWords([...fields, ...splitWords(text)], new Set());
}

function findSecretInJsonText(text: string): SecretMatch | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  let found: SecretMatch | undefined;
  visitScalars(parsed, undefined, (key, value) => {
    found ??= (typeof value === 'string' ? matchSecretValue(value) : undefined) ?? matchNamedValue(key, value, 'a field');
  });
  return found;
}

function visitScalars(value: unknown, key: string | undefined, visit: (key: string | undefined, value: unknown) => void): void {
  if (Array.isArray(value)) value.forEach((item) => visitScalars(item, key, visit));
  else if (typeof value === 'object' && value !== null) for (const [name, item] of Object.entries(value)) visitScalars(item, name, visit);
  else visit(key, value);
}

/** Each word of an argument or text; `programs` are the program names seen so far. */
function matchWords(words: readonly string[], programs: ReadonlySet<string>): SecretMatch | undefined {
  for (const [i, word] of words.entries()) {
    const shaped = words.length === 1 ? undefined : matchSecretValue(word) ?? matchWhole(word);
    if (shaped) return shaped;
    for (const url of word.match(URL_IN_TEXT) ?? []) {
      const inUrl = matchUrlCredentials(url);
      if (inUrl) return inUrl;
    }
    const flag = FLAG.exec(word)?.[1];
    const following = words[i + 1];
    if (flag && following !== undefined && takesSeparateValue(flag, following, programs)) {
      const named = matchNamedValue(flag, following, 'an option');
      if (named) return named;
    }
    const password = /^-p(.+)$/s.exec(word)?.[1];
    if (password !== undefined && isLiteral(password) && [...MYSQL_CLIENTS].some((program) => programs.has(program))) {
      return { kind: 'MySQL password option', redacted: `-p…(${password.length} chars)` };
    }
  }
  return undefined;
}

/** A literal under a name that says credential; `noun` ("an option") is what the name belongs to. */
export function matchNamedValue(name: string | undefined, value: unknown, noun: string): SecretMatch | undefined {
  if (name === undefined || (typeof value !== 'string' && typeof value !== 'number')) return undefined;
  const text = String(value);
  if (!isLiteral(text) || !isSensitiveKeyName(name)) return undefined;
  return { kind: `value of ${noun} named like a credential (${name})`, redacted: `…(${text.length} chars)` };
}

/** Not empty, not a placeholder, not a shell reference: what would be sent as written. */
function isLiteral(value: string): boolean {
  const text = value.trim().replace(/^(['"])(.*)\1$/s, '$2');
  // `Bearer $TOKEN`, `Basic {{x}}`: after an auth scheme, the credential part is what counts.
  const credential = /^[A-Za-z]+\s+(\S.*)$/s.exec(text)?.[1] ?? text;
  return credential !== '' && !isPlaceholder(credential) && !credential.startsWith('$') && !/^\{\{[^}]*\}\}$/.test(credential);
}

/** Shell-like words: quoted parts belong to their word, quotes removed. Enough to read `sh -c` strings. */
function splitWords(text: string): string[] {
  const words = text.match(/(?:"[^"]*"|'[^']*'|[^\s"']+)+/g) ?? [];
  return words.map((word) => word.replace(/"([^"]*)"|'([^']*)'/g, '$1$2'));
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
