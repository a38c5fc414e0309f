/**
 * Text that tries to end a SQL literal or identifier and run a statement of its own, markup aimed at
 * the plan's renderings, plus random text of every Unicode plane. Wherever a manifest or the CLI accepts free text it must be stored
 * and read back exactly, or refused with a located diagnostic; it must never run.
 */
import fc from 'fast-check';

export const SQL_INJECTIONS = [
  "'); drop table schedules;--",
  "x'; drop table schedules;--",
  "'); delete from audit_log;--",
  "' OR '1'='1",
  "' OR 1=1; truncate schedule_versions cascade; --",
  '"; DROP TABLE "schedules"; --',
  '$$; drop table schedules; $$',
  '$tag$ drop table schedules $tag$',
  '$1',
  "\\'; drop table schedule_runs; --",
  "E'\\\\x27'; drop table runners; --",
  "1; select pg_sleep(30); --",
  "' || (select string_agg(name, ',') from schedules) || '",
  "' || pg_read_file('/etc/passwd') || '",
  "'; copy schedules to program 'touch /tmp/cronform-pwned'; --",
  '/* */; drop table settings; /*',
  "');\n\ndrop table schedules;\n--",
  "\u202E'; drop table schedules;--",
  "'; notify schedules_changed, 'pwned'; --",
  '\\x00',
  '\\u0000',
  "{{businessDate}}'; --",
  '%s%s%s%n',
  'null',
  'NULL',
  '',
  ' ',
  '--',
  ';',
  "'",
  '"',
  '\\',
];

/** Text aimed at the plan's renderings: the PR comment's sticky marker, HTML, markdown tables and code. */
export const MARKUP_INJECTIONS = ['<!-- cronform:plan -->', '</details></details><details open>', '<script>alert(1)</script>', '| x | y |\n|---|---|', '```\n- archive everything\n```', '\u001b[31mred\u001b[0m'];

/** Text PostgreSQL cannot store (in text nor jsonb): refused by validation with CF013. */
export const UNSTORABLE_TEXT = ['nul \0 inside', 'lone \uD800 high surrogate', '\uDFFF lone low surrogate'];

/** Text for any free-form field: injections, random Unicode (NUL and lone surrogates included), mixes. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SQL_INJECTIONS), weight: 8 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 4 },
  { arbitrary: fc.tuple(fc.constantFrom(...SQL_INJECTIONS), fc.string({ unit: 'binary', maxLength: 10 })).map(([a, b]) => `${b}${a}${b}`), weight: 2 },
  { arbitrary: fc.constantFrom(...MARKUP_INJECTIONS), weight: 2 },
  { arbitrary: fc.constantFrom(...UNSTORABLE_TEXT), weight: 1 },
);
