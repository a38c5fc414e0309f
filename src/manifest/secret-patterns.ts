/**
 * Recognisers for credential-looking strings. Each returns what was found in words and a redacted
 * form; the secret itself never leaves this file (messages print at most a well-known prefix).
 */

export interface SecretMatch {
  /** What the value looks like, e.g. "GitHub token". */
  kind: string;
  /** e.g. `ghp_…(40 chars)`: a public prefix at most, then the length. */
  redacted: string;
}

interface TokenPattern {
  kind: string;
  pattern: RegExp;
  /** Characters of the match that are a public, documented prefix and safe to print. */
  prefix: RegExp;
}

// Published token formats. `(?<![A-Za-z0-9])` stands for a word start that also allows `_`/`-` before.
const TOKEN_PATTERNS: readonly TokenPattern[] = [
  { kind: 'GitHub token', pattern: /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{36,}/, prefix: /^gh._/ },
  { kind: 'GitHub token', pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{22,}/, prefix: /^github_pat_/ },
  { kind: 'GitLab token', pattern: /(?<![A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/, prefix: /^glpat-/ },
  { kind: 'Slack token', pattern: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/, prefix: /^xox.-/ },
  { kind: 'Slack webhook URL', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]{20,}/, prefix: /^https:\/\/hooks\.slack\.com\// },
  { kind: 'Stripe secret key', pattern: /(?<![A-Za-z0-9])[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/, prefix: /^[rs]k_(?:live|test)_/ },
  // OpenAI, Anthropic (sk-ant-) and others; the digit requirement spares kebab-case words like sk-backup-…
  { kind: 'API secret key', pattern: /(?<![A-Za-z0-9])sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}/, prefix: /^sk-/ },
  { kind: 'AWS access key id', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/, prefix: /^A[KS]IA/ },
  { kind: 'Google API key', pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/, prefix: /^AIza/ },
  { kind: 'npm token', pattern: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}/, prefix: /^npm_/ },
  { kind: 'SendGrid API key', pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/, prefix: /^SG\./ },
  { kind: 'Notion token', pattern: /(?<![A-Za-z0-9])(?:secret_|ntn_)[A-Za-z0-9]{40,}/, prefix: /^(?:secret_|ntn_)/ },
  { kind: 'Hugging Face token', pattern: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{34,}/, prefix: /^hf_/ },
  { kind: 'PyPI token', pattern: /(?<![A-Za-z0-9])pypi-[A-Za-z0-9_-]{50,}/, prefix: /^pypi-/ },
  { kind: 'Shopify token', pattern: /(?<![A-Za-z0-9])shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}/, prefix: /^shp.._/ },
];

const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const JWT_CANDIDATE = /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{8,})\.([A-Za-z0-9_-]{8,})\.([A-Za-z0-9_-]*)/;
const AUTH_SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S{8,})$/i;

/**
 * Answers already given. A repository repeats the same few hundred env values and key names
 * thousands of times, and each new text runs some twenty regular expressions; both answers are pure.
 * Names keep both answers (booleans); values only "no secret", so no match object is shared. Bounded.
 */
const valuesWithoutSecret = new Set<string>();
const namesNotSensitive = new Set<string>();
const sensitiveNames = new Set<string>();
const ANSWER_CACHE_LIMIT = 10_000;
const CACHED_TEXT_MAX_LENGTH = 200;

function remember(set: Set<string>, text: string): void {
  if (text.length > CACHED_TEXT_MAX_LENGTH) return;
  if (set.size >= ANSWER_CACHE_LIMIT) set.clear();
  set.add(text);
}

/** Looks for known credential shapes inside a literal string. */
export function matchSecretValue(value: string): SecretMatch | undefined {
  if (valuesWithoutSecret.has(value)) return undefined;
  const match = findSecretShape(value);
  if (match === undefined) remember(valuesWithoutSecret, value);
  return match;
}

function findSecretShape(value: string): SecretMatch | undefined {
  if (isPlaceholder(value)) return undefined;
  const privateKey = PRIVATE_KEY.exec(value);
  if (privateKey) return { kind: 'private key', redacted: `${privateKey[0]}…(${value.length} chars)` };
  for (const { kind, pattern, prefix } of TOKEN_PATTERNS) {
    const token = pattern.exec(value)?.[0];
    if (token) return { kind, redacted: `${prefix.exec(token)?.[0] ?? ''}…(${token.length} chars)` };
  }
  const jwt = matchJwt(value);
  if (jwt) return { kind: 'JSON Web Token', redacted: `eyJ…(${jwt.length} chars)` };
  const urlSecret = matchUrlCredentials(value);
  if (urlSecret) return urlSecret;
  const scheme = AUTH_SCHEME.exec(value.trim());
  if (scheme && !isPlaceholder(scheme[2] ?? '')) {
    return { kind: 'authorization credential', redacted: `${scheme[1]} …(${scheme[2]?.length ?? 0} chars)` };
  }
  if (isHighEntropyToken(value)) return { kind: 'high-entropy string', redacted: `…(${value.length} chars)` };
  return undefined;
}

/** `{{businessDate}}`, `${TOKEN}`, `$TOKEN`, `<your token>`: references and placeholders, not values. */
export function isPlaceholder(value: string): boolean {
  return /^\s*(?:\{\{[^}]*\}\}|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|<[^<>]*>)\s*$/.test(value);
}

/** Three base64url parts whose first decodes to a JSON header naming an algorithm. */
function matchJwt(value: string): string | undefined {
  const match = JWT_CANDIDATE.exec(value);
  if (!match?.[1]) return undefined;
  try {
    const header = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as unknown;
    const alg = (header as { alg?: unknown } | null)?.alg;
    return typeof alg === 'string' ? match[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `scheme://user:password@host` (`redis://:password@host` too), a token as the user name
 * (`https://<token>@github.com`), or a query parameter named like a credential (`?access_token=`,
 * `?api_key=`, `?sig=`).
 */
export function matchUrlCredentials(value: string): SecretMatch | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return matchUnparsedUserinfo(value.trim());
  }
  const where = `${url.protocol}//${url.host}`;
  if (url.password && !isPlaceholder(decodeURIComponent(url.password))) {
    return { kind: 'URL with a password', redacted: `${where} (password of ${url.password.length} chars)` };
  }
  const user = decodeURIComponent(url.username);
  if (user && isHighEntropyToken(user)) return { kind: 'URL with a token as user name', redacted: `${where} (user of ${user.length} chars)` };
  for (const [name, parameter] of url.searchParams) {
    if (parameter && !isPlaceholder(parameter) && (isSensitiveKeyName(name) || /^(?:key|sig|signature)$/i.test(name))) {
      return { kind: `URL with a credential parameter "${name}"`, redacted: `${where} (${name}=…, ${parameter.length} chars)` };
    }
  }
  return undefined;
}

/**
 * Drivers accept what WHATWG URL parsing refuses (`mysql://u:p@tcp(db:3306)/app`, several hosts):
 * the userinfo is read by hand, up to the last `@` before the path.
 */
function matchUnparsedUserinfo(value: string): SecretMatch | undefined {
  const userinfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#\s]*)@/i.exec(value);
  const password = userinfo?.[2]?.split(':').slice(1).join(':');
  if (!userinfo || !password || isPlaceholder(password)) return undefined;
  return { kind: 'URL with a password', redacted: `${userinfo[1]}… (password of ${password.length} chars)` };
}

const SENSITIVE_WORDS = new Set([
  'password', 'passwd', 'passphrase', 'pass', 'secret', 'token', 'credential', 'credentials',
  'apikey', 'authorization', 'cookie', 'privatekey', 'accesskey', 'pgpassword', 'sessionid',
]);
/** Words that name a credential only after a qualifier: MYSQL_PWD, DB_PWD, but not the shell's PWD. */
const QUALIFIED_SENSITIVE_WORDS = new Set(['pwd']);
// "<qualifier> key" pairs that name a credential: apiKey, X-Api-Key, private_key, SIGNING_KEY…
const KEY_QUALIFIERS = new Set(['api', 'private', 'access', 'signing', 'encryption', 'master']);
// A last word that turns a sensitive name into a name about it: TOKEN_URL, secretName, DB_PASSWORD_FILE.
const DESCRIPTIVE_SUFFIXES = new Set([
  'url', 'uri', 'endpoint', 'host', 'file', 'path', 'dir', 'name', 'id', 'ttl', 'type', 'header',
  'expiry', 'expires', 'length', 'count', 'enabled', 'disabled', 'required', 'mode', 'version',
  'format', 'region', 'scope', 'scopes', 'kind', 'timeout', 'prefix', 'rotation',
]);

/** password, NOTION_TOKEN, apiKey, X-Api-Key, client_secret… but not TOKEN_URL or maxTokens. */
export function isSensitiveKeyName(name: string): boolean {
  if (namesNotSensitive.has(name)) return false;
  if (sensitiveNames.has(name)) return true;
  const sensitive = nameHasSensitiveWord(name);
  remember(sensitive ? sensitiveNames : namesNotSensitive, name);
  return sensitive;
}

function nameHasSensitiveWord(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const last = words[words.length - 1];
  if (last === undefined || DESCRIPTIVE_SUFFIXES.has(last)) return false;
  return words.some(
    (word, i) =>
      SENSITIVE_WORDS.has(word) || (word === 'key' && KEY_QUALIFIERS.has(words[i - 1] ?? '')) || (i > 0 && QUALIFIED_SENSITIVE_WORDS.has(word)),
  );
}

/**
 * A random-looking token: 20+ characters of the base64/base64url alphabet, upper and lower case and
 * digits, Shannon entropy ≥ 3.5 bits per character, and a character class (upper/lower/digit)
 * changing at 40%+ of positions. Measured on random base62/base64url strings this flags 94% at 20
 * characters and 99% from 32; identifiers made of words (ReconcilePaymentsDaily2024Q3, 4.1 bits
 * but 30% changes), UUIDs, hex checksums and commit SHAs (no upper case), dates, paths (starting
 * with `/`, `./`, `../` or `~/`) and URLs (`.`, `:`, `//`) are left alone; hex credentials are caught by their key names.
 */
export function isHighEntropyToken(value: string): boolean {
  if (value.length < 20 || !/^[A-Za-z0-9+/=_-]+$/.test(value) || value.includes('//')) return false;
  // A path (`/tmp/cronform-chaos-fNq1iP`, `./out/Report2024Q3`): `/` is base64 too, but a token
  // starting with one is a 1-in-64 case, and its known shapes are still matched above this check.
  if (/^(?:\.{0,2}|~)\//.test(value)) return false;
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return measureShannonEntropy(value) >= 3.5 && measureClassChanges(value) >= 0.4;
}

export function measureShannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function measureClassChanges(value: string): number {
  const classOf = (char: string) => (/[A-Z]/.test(char) ? 1 : /[a-z]/.test(char) ? 2 : /[0-9]/.test(char) ? 3 : 0);
  let changes = 0;
  for (let i = 1; i < value.length; i++) if (classOf(value[i] ?? '') !== classOf(value[i - 1] ?? '')) changes++;
  return changes / (value.length - 1);
}
