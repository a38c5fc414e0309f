/**
 * Turns a crontab command into argv when that is exactly what `sh -c` would have run, and says
 * which shell syntax it uses otherwise. cron hands every command to a shell; cronform runs argv
 * without one (SPEC §3.1), so a command is only split when quoting and escaping are the only shell
 * features it uses. Anything else (pipes, redirects, lists, expansions, globs) keeps the shell.
 */

export interface ShellWords {
  /** The words as the shell would pass them (quotes removed, escapes applied). */
  words: string[];
  /** Shell features that need a shell, in order of first appearance; empty: `words` is the argv. */
  shellSyntax: string[];
}

const OPERATORS: Array<[string, string]> = [
  ['&&', 'an and-list (&&)'],
  ['||', 'an or-list (||)'],
  ['|', 'a pipe (|)'],
  [';', 'a command list (;)'],
  ['&', 'a background job (&)'],
  ['>', 'a redirection (>)'],
  ['<', 'a redirection (<)'],
  ['(', 'a subshell (…)'],
  [')', 'a subshell (…)'],
];

/** Splits like POSIX sh's word splitting of a literal command line, recording every shell feature met. */
export function splitShellWords(command: string): ShellWords {
  const words: string[] = [];
  const syntax = new Set<string>();
  let current = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(current);
    current = '';
    inWord = false;
  };

  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (char === ' ' || char === '\t') {
      endWord();
      continue;
    }
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) {
        syntax.add('an unterminated quote');
        current += command.slice(i + 1);
        inWord = true;
        break;
      }
      current += command.slice(i + 1, end);
      inWord = true;
      i = end;
      continue;
    }
    if (char === '"') {
      const quoted = readDoubleQuoted(command, i + 1);
      quoted.syntax.forEach((feature) => syntax.add(feature));
      current += quoted.text;
      inWord = true;
      i = quoted.end;
      continue;
    }
    if (char === '\\') {
      if (i + 1 < command.length) current += command[++i];
      else syntax.add('a trailing backslash');
      inWord = true;
      continue;
    }
    const operator = OPERATORS.find(([text]) => command.startsWith(text, i));
    if (operator) {
      // `2>&1` and `>&2` are redirections, not background jobs.
      const redirection = operator[0] === '&' && (command[i - 1] === '>' || command[i - 1] === '<');
      syntax.add(redirection ? 'a redirection (>)' : operator[1]);
      current += operator[0];
      inWord = true;
      i += operator[0].length - 1;
      continue;
    } else if (char === '$' || char === '`') {
      syntax.add(char === '$' ? 'a $ expansion' : 'a command substitution (`…`)');
    } else if (char === '*' || char === '?' || char === '[') {
      syntax.add(`a glob (${char})`);
    } else if (char === '{' || char === '}') {
      syntax.add('braces ({…})');
    } else if (!inWord && (char === '~' || char === '#' || char === '!')) {
      syntax.add(char === '~' ? 'a home directory (~)' : char === '#' ? 'a comment (#)' : 'a negation (!)');
    } else if (char === '=' && words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(current)) {
      syntax.add('a variable assignment before the command');
    }
    current += char;
    inWord = true;
  }
  endWord();
  return { words, shellSyntax: [...syntax] };
}

/** Reads up to the closing `"`: inside double quotes only `\$ \` \" \\` are escapes. */
function readDoubleQuoted(command: string, start: number): { text: string; end: number; syntax: string[] } {
  const syntax: string[] = [];
  let text = '';
  for (let i = start; i < command.length; i++) {
    const char = command[i]!;
    if (char === '"') return { text, end: i, syntax };
    if (char === '\\' && i + 1 < command.length && '$`"\\'.includes(command[i + 1]!)) {
      text += command[++i];
      continue;
    }
    if (char === '$') syntax.push('a $ expansion');
    if (char === '`') syntax.push('a command substitution (`…`)');
    text += char;
  }
  return { text, end: command.length, syntax: [...syntax, 'an unterminated quote'] };
}
