/**
 * What a command job's argv really runs, read the way a reviewer should and an attacker hopes
 * they will not: through wrappers (`env`, `nice`, `timeout`, `sudo`…), into interpreter flags that
 * load or evaluate code (`node --import`, `python -c`), and into shell command strings, which are
 * split into their simple commands and read the same way. Pure and heuristic by design: it flags
 * for review, it never decides what is safe.
 */

/** One thing found in an argv, with the text that shows it. */
export type CommandSign =
  | { kind: 'assignment'; name: string; value: string }
  | { kind: 'inline-code'; program: string; flag: string; code: string }
  | { kind: 'fetch-and-execute'; program: string; code: string }
  | { kind: 'result-in-code'; program: string; code: string };

/**
 * `{{steps.NAME.output.KEY}}`: data an earlier step wrote. Substituted into a script (`sh -c`,
 * `python -c`) or as the program itself, it is run as code: what the step wrote decides what runs.
 */
const STEP_RESULT = /\{\{\s*steps\./;

function resultInCode(program: string, code: string): CommandSign[] {
  return STEP_RESULT.test(code) ? [{ kind: 'result-in-code', program, code }] : [];
}

/** Wrappers that run the rest of the argv: flags taking a value, and positional arguments before the command. */
const WRAPPERS: Record<string, { valueFlags: string[]; positionals: number }> = {
  env: { valueFlags: ['-u', '--unset', '-C', '--chdir'], positionals: 0 },
  nice: { valueFlags: ['-n', '--adjustment'], positionals: 0 },
  nohup: { valueFlags: [], positionals: 0 },
  setsid: { valueFlags: [], positionals: 0 },
  exec: { valueFlags: ['-a'], positionals: 0 },
  command: { valueFlags: [], positionals: 0 },
  stdbuf: { valueFlags: ['-i', '-o', '-e'], positionals: 0 },
  timeout: { valueFlags: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  ionice: { valueFlags: ['-c', '--class', '-n', '--classdata', '-p', '--pid'], positionals: 0 },
  chrt: { valueFlags: [], positionals: 1 },
  taskset: { valueFlags: [], positionals: 1 },
  sudo: { valueFlags: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'], positionals: 0 },
  doas: { valueFlags: ['-u', '-C'], positionals: 0 },
  busybox: { valueFlags: [], positionals: 0 },
  xargs: { valueFlags: ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s'], positionals: 0 },
};

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish', 'csh', 'tcsh', 'rbash']);

/** Per interpreter family: does this argument load or evaluate code? Code-taking flags take the next argument unless attached. */
const INTERPRETERS: Array<{ program: RegExp; loadsCode: (arg: string) => boolean; valueFlags?: RegExp }> = [
  {
    program: /^(node|nodejs|bun|deno|tsx|ts-node)$/,
    loadsCode: (arg) =>
      ['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--env-file-if-exists', '--inspect', '--inspect-brk', '--inspect-wait'].some(
        (flag) => arg === flag || arg.startsWith(`${flag}=`),
      ) || /^-[ep]{2}$/.test(arg) || arg === 'eval',
    valueFlags: /^(-C|--conditions|--title|--max-old-space-size|--stack-size)$/,
  },
  // Options taking a separate value (`-W ignore`, `-I lib`): their value is not the script.
  { program: /^(python|pypy)[\d.]*$/, loadsCode: (arg) => /^-[A-Za-z]*c/.test(arg), valueFlags: /^-[WXQ]$/ },
  { program: /^perl[\d.]*$/, loadsCode: (arg) => /^-[A-Za-z]*[eE]/.test(arg) || /^-[mM]/.test(arg), valueFlags: /^-[Ix]$/ },
  { program: /^ruby[\d.]*$/, loadsCode: (arg) => /^-[A-Za-z]*e/.test(arg) || /^-r/.test(arg) || arg.startsWith('--require'), valueFlags: /^-[ICE]$/ },
  { program: /^php[\d.]*$/, loadsCode: (arg) => /^-[rdBRE]/.test(arg), valueFlags: /^-[cz]$/ },
  { program: /^(pwsh|powershell)$/, loadsCode: (arg) => /^-(c|command|e|ec|enc|encodedcommand)$/i.test(arg) },
  { program: /^osascript$/, loadsCode: (arg) => arg === '-e' },
];

/** A fetcher and an executor in one command string (`curl … | sh`, `eval "$(wget …)"`, `base64 -d | bash`). */
const FETCH = /\b(curl|wget|fetch|aria2c|lwp-download|lwp-request|scp|rsync|ftp|tftp|nc|ncat|socat|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|DownloadString|DownloadFile|urlopen|urllib|requests\.get)\b|\/dev\/(tcp|udp)\/|\bfetch\s*\(/i;
const DECODE = /\bbase(64|32)\s+(-\w*d|--decode|-D)\b|\bopenssl\s+(enc|base64)\b|\bxxd\s+-r\b|\buudecode\b|\bFromBase64String\b|\bb64decode\b|\batob\s*\(/i;
const EXECUTE =
  /\|\s*(sudo\s+(-\S+\s+)*)?(env\s+)?(\S*\/)?(sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|python[\d.]*|pypy[\d.]*|perl|ruby|node|nodejs|bun|deno|php|pwsh|powershell|iex|source|osascript)\b|\beval\b|\bsource\b|(^|[;&|(\n]\s*)\.\s+\S|<\(|\biex\b|\bInvoke-Expression\b|\bchmod\s+[+0-7ugoa]*x|\b(exec|eval)\s*\(|(^|[;&|(\n]\s*)["']?(\$\(|`)|(^|[;&|(\n]\s*)(sudo\s+)?(\S*\/)?(sh|bash|zsh|dash|ksh|ash|python[\d.]*|perl|ruby|node|php)\s+[^\s-]/i;

export function programName(arg: string): string {
  return (arg.split(/[\\/]/).at(-1) ?? arg).toLowerCase().replace(/\.exe$/, '');
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/**
 * Whether a command string both fetches (or decodes) code and executes it. Quotes and backslashes
 * are dropped first, as the shell drops them: `c''url` and `cu\\rl` are `curl`.
 */
export function fetchesAndExecutes(code: string): boolean {
  const words = code.replace(/["'\\]/g, '');
  return (FETCH.test(words) || DECODE.test(words)) && EXECUTE.test(words);
}

/**
 * Splits a shell command string into simple commands of words, roughly: quotes are dropped, and
 * `;`, `&&`, `||`, `|`, `&`, newlines, `$(`, backticks and parentheses separate commands. Good
 * enough to find `node -e`, `LD_PRELOAD=…` or `export NODE_OPTIONS=…` inside a script.
 */
export function splitShellCommands(code: string): string[][] {
  return code
    .split(/\|\||&&|[;|&\n\r()`{}]|\$\(/)
    .map((part) => part.replace(/["']/g, '').trim().split(/\s+/).filter((word) => word !== ''))
    .filter((words) => words.length > 0);
}

/** The signs in one argv; `depth` bounds how far nested shell strings are followed. */
export function analyzeCommand(argv: readonly string[], depth = 0): CommandSign[] {
  const signs: CommandSign[] = [];
  let index = 0;
  // Leading NAME=VALUE words (a shell's simple command, or after `env`/`sudo`) set the program's environment.
  const takeAssignments = () => {
    for (let match; index < argv.length && (match = ASSIGNMENT.exec(argv[index]!)); index += 1) signs.push({ kind: 'assignment', name: match[1]!, value: match[2]! });
  };
  // Only a shell reads leading assignments; as argv[0] of a spawned job, `A=b` is a program name.
  if (depth > 0) takeAssignments();
  while (index < argv.length) {
    const program = programName(argv[index]!);
    if ((program === 'export' || program === 'declare' || program === 'typeset' || program === 'readonly' || program === 'local' || program === 'set') && depth > 0) {
      index += 1;
      while (index < argv.length && argv[index]!.startsWith('-')) index += 1;
      takeAssignments();
      continue;
    }
    const wrapper = WRAPPERS[program];
    if (!wrapper) break;
    index += 1;
    while (index < argv.length && argv[index]!.startsWith('-') && argv[index] !== '--') {
      if (program === 'env' && (argv[index] === '-S' || argv[index]!.startsWith('--split-string'))) {
        // `env -S "node --import x"` is a command line in one argument: read it as one.
        const line = argv[index] === '-S' ? argv[index + 1] ?? '' : argv[index]!.replace(/^--split-string=?/, '');
        return [...signs, ...analyzeCommand([...splitShellCommands(line).flat(), ...argv.slice(index + (argv[index] === '-S' ? 2 : 1))], depth)];
      }
      index += wrapper.valueFlags.includes(argv[index]!) ? 2 : 1;
    }
    if (argv[index] === '--') index += 1;
    index += wrapper.positionals;
    takeAssignments();
  }
  if (index >= argv.length) return signs;
  if (STEP_RESULT.test(argv[index]!)) return [...signs, { kind: 'result-in-code', program: argv[index]!, code: argv[index]! }];
  const program = programName(argv[index]!);
  const args = argv.slice(index + 1);
  if (SHELLS.has(program)) {
    // `-c` wherever it stands: options before it may take values (`-o pipefail -c …`), and a
    // reviewer is better served by reading a script's own `-c x` than by missing a command string.
    const flagIndex = args.findIndex((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg));
    if (flagIndex >= 0) {
      const code = args[flagIndex + 1] ?? '';
      if (fetchesAndExecutes(code)) signs.push({ kind: 'fetch-and-execute', program, code });
      signs.push(...resultInCode(program, code));
      if (depth < 3) for (const command of splitShellCommands(code)) signs.push(...analyzeCommand(command, depth + 1));
    }
    return signs;
  }
  if (program === 'cmd') {
    const flagIndex = args.findIndex((arg) => /^\/[ck]$/i.test(arg));
    if (flagIndex >= 0) {
      const code = args.slice(flagIndex + 1).join(' ');
      if (fetchesAndExecutes(code)) signs.push({ kind: 'fetch-and-execute', program, code });
      signs.push(...resultInCode(program, code));
    }
    return signs;
  }
  const interpreter = INTERPRETERS.find((candidate) => candidate.program.test(program));
  if (!interpreter) return [...signs, ...analyzeUnknownProgramArguments(args, depth)];
  for (const [position, arg] of args.entries()) {
    // The script (first operand) ends the interpreter's own options; later arguments are the script's.
    if (!arg.startsWith('-') && arg !== 'eval' && !interpreter.valueFlags?.test(args[position - 1] ?? '')) break;
    if (!interpreter.loadsCode(arg)) continue;
    const attached = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : '';
    const code = attached || (args[position + 1] ?? '');
    signs.push({ kind: 'inline-code', program, flag: arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg, code });
    if (fetchesAndExecutes(code)) signs.push({ kind: 'fetch-and-execute', program, code });
    signs.push(...resultInCode(program, code));
  }
  return signs;
}

const isShellOrInterpreter = (arg: string): boolean => {
  const program = programName(arg);
  return SHELLS.has(program) || INTERPRETERS.some((candidate) => candidate.program.test(program));
};

/**
 * The arguments of a program this module does not know: it may be a wrapper missing from WRAPPERS
 * (`flock /tmp/l sh -c …`, `su -c "…"`, `watch "…"`), so a later shell or interpreter is read as
 * the command it starts, and any argument that fetches and executes is a sign by itself.
 */
function analyzeUnknownProgramArguments(args: readonly string[], depth: number): CommandSign[] {
  const started = args.findIndex(isShellOrInterpreter);
  if (started >= 0) return analyzeCommand(args.slice(started), depth);
  return args.filter(fetchesAndExecutes).map((code) => ({ kind: 'fetch-and-execute', program: 'argument', code }));
}
