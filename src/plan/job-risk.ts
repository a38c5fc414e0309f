/**
 * Risk of what a job runs (SPEC §5, trust model), judged field by field: every change to the job
 * is at least MEDIUM, and the ways a change can run other code than the reviewer reads are HIGH,
 * for a created or restored schedule's whole job as for an update. An update is only blamed for
 * what it brings: a sign already in the stored job (same field, same text) is not raised again.
 * Pure; messages quote the dangerous text made visible.
 */
import { executableJobsOf, type Definition, type EnvValue, type JobDefinition } from '../compile/definition.js';
import { canonicalJson } from '../compile/digest.js';
import { describeQueueTarget } from '../compile/queue-job.js';
import { isCronformConfiguration } from '../shared/own-configuration.js';
import { hasHiddenCharacters, makeVisible, quoteVisibly } from '../shared/visible-text.js';
import { analyzeCommand, type CommandSign } from './command-analysis.js';
import { displayPath } from './field-names.js';
import { diffFields } from './field-diff.js';

export const JobRiskCodes = {
  CF506: { level: 'MEDIUM', meaning: 'job changed (arguments, environment, working directory, headers, body, expected status, inputs, payload or business date): review what now runs' },
  CF507: { level: 'HIGH', meaning: 'a loader or interpreter variable is set (LD_*, DYLD_*, NODE_OPTIONS, PATH, PYTHON*, …): other code can run' },
  CF508: { level: 'HIGH', meaning: 'an interpreter flag loads or evaluates code (node --import/-r/-e, python -c, perl -e, …)' },
  CF509: { level: 'HIGH', meaning: 'the working directory is outside the repository (absolute, ~ or escaping with ..)' },
  CF510: { level: 'HIGH', meaning: 'a command string fetches or decodes code and executes it (curl … | sh, eval "$(wget …)", base64 -d | bash)' },
  CF511: { level: 'HIGH', meaning: 'an http job now calls another host' },
  CF512: { level: 'HIGH', meaning: "the job reads cronform's own configuration (DATABASE_URL, CRONFORM_*, PG*) from the runner's environment" },
  CF513: { level: 'HIGH', meaning: 'control, bidi or invisible characters in a job field' },
  CF518: { level: 'HIGH', meaning: 'a step result ({{steps.NAME.output.KEY}}) is placed in code (a sh -c script, python -c, …) or as the program: data a step wrote decides what runs' },
  CF516: { level: 'HIGH', meaning: 'a queue job now hands runs to another database (its url changed, was added or removed)' },
  CF515: { level: 'HIGH', meaning: 'a sql queue job calls a database function with the runner\'s role (created or changed): code execution in the database' },
} as const;
export type JobRiskCode = keyof typeof JobRiskCodes;

export interface JobConcern {
  code: JobRiskCode;
  level: 'MEDIUM' | 'HIGH';
  message: string;
  hint: string;
  /** Definition path that locates it in the manifest (`job.env.NODE_OPTIONS`). */
  path: string;
  /** What identifies the sign: an update raises only signs the stored job does not have. */
  evidence: string;
}

/**
 * Variables that make a runtime, the dynamic loader, a shell or git load other code, or change
 * which program or which trust store is used. Exact names, then prefixes.
 */
const LOADER_VARIABLES = new Set([
  'PATH', 'HOME', 'XDG_CONFIG_HOME', 'ZDOTDIR', 'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'PROMPT_COMMAND', 'IFS',
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED', 'RUBYOPT', 'RUBYLIB', 'PERLLIB',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'PHPRC', 'PHP_INI_SCAN_DIR', 'DOTNET_STARTUP_HOOKS',
  'LUA_INIT', 'LUA_PATH', 'LUA_CPATH', 'GCONV_PATH', 'HOSTALIASES', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'CURL_CA_BUNDLE', 'REQUESTS_CA_BUNDLE',
  'OPENSSL_CONF', 'OPENSSL_ENGINES', 'OPENSSL_MODULES', 'GEM_PATH', 'GEM_HOME', 'RUBYGEMS_GEMDEPS', 'LOCPATH', 'ELECTRON_RUN_AS_NODE',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_ASKPASS', 'GIT_PROXY_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_TEMPLATE_DIR', 'GIT_PAGER', 'GIT_EDITOR', 'GIT_DIR',
  // Attack review, 2026-12-01: toolchains and tools that run or fetch code named by a variable.
  'GOFLAGS', 'GOPROXY', 'GONOSUMDB', 'GONOSUMCHECK', 'GOPRIVATE', 'GOINSECURE', 'GOSUMDB', 'RUSTC_WRAPPER', 'RUSTC', 'RUSTDOC', 'RUSTFLAGS',
  'GLIBC_TUNABLES', 'LESSOPEN', 'LESSCLOSE', 'PAGER', 'EDITOR', 'VISUAL', 'BROWSER', 'NODE_REPL_EXTERNAL_MODULE', 'PERL_MB_OPT', 'PERL_MM_OPT',
  'UV_INDEX_URL', 'UV_EXTRA_INDEX_URL', 'UV_INDEX', 'CC', 'CXX', 'MAKEFLAGS',
]);
const LOADER_PREFIXES = ['LD_', 'DYLD_', 'PYTHON', 'PERL5', 'BASH_FUNC_', 'NPM_CONFIG_', 'GIT_CONFIG', 'PIP_', 'CARGO_', 'BUNDLE_', 'YARN_', 'PNPM_', 'COMPOSER_', 'MAVEN_', 'GRADLE_'];
/** PYTHON* variables that only tune output or hashing and load nothing. */
const HARMLESS_PYTHON = new Set(['PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONHASHSEED', 'PYTHONUTF8']);

export function isLoaderVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (HARMLESS_PYTHON.has(upper)) return false;
  return LOADER_VARIABLES.has(upper) || LOADER_PREFIXES.some((prefix) => upper.startsWith(prefix));
}


/** Absolute, home-relative, or climbing out with `..`: resolved against the repository it leaves it. */
export function isOutsideRepository(cwd: string): boolean {
  const path = cwd.replace(/\\/g, '/');
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:/.test(path)) return true;
  let depth = 0;
  for (const segment of path.split('/')) {
    if (segment === '..') depth -= 1;
    else if (segment !== '' && segment !== '.') depth += 1;
    if (depth < 0) return true;
  }
  return false;
}

const describeEnv = (value: EnvValue): string => (typeof value === 'string' ? quoteVisibly(value) : `fromEnv ${makeVisible(value.fromEnv)}`);

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0]!.toLowerCase();
  }
}

/** Every string of a job field with its Definition path, for the hidden-character check. */
function jobStrings(job: JobDefinition, base: string): Array<[string, string]> {
  const strings: Array<[string, string]> = [];
  const values = (field: string, record: Record<string, EnvValue>) => {
    for (const [key, value] of Object.entries(record)) {
      strings.push([`${base}.${field}.${key}`, key], [`${base}.${field}.${key}`, typeof value === 'string' ? value : value.fromEnv]);
    }
  };
  if (job.type === 'command') {
    job.command.forEach((arg, index) => strings.push([`${base}.command.${index}`, arg]));
    strings.push([`${base}.cwd`, job.cwd]);
    values('env', job.env);
  } else if (job.type === 'queue') {
    for (const [key, value] of Object.entries(job)) {
      if (typeof value === 'string') strings.push([`job.${key}`, value]);
      else if (value && typeof value === 'object') for (const [name, item] of Object.entries(value)) strings.push([`job.${key}.${name}`, name], [`job.${key}.${name}`, String(item)]);
    }
  } else {
    strings.push([`${base}.url`, job.url], [`${base}.method`, job.method]);
    values('headers', job.headers);
    const walk = (value: unknown): void => {
      if (typeof value === 'string') strings.push([`${base}.body`, value]);
      else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) [key, item].forEach(walk);
    };
    walk(job.body);
  }
  return strings;
}

function describeSign(sign: CommandSign): Pick<JobConcern, 'code' | 'message' | 'hint' | 'evidence'> | null {
  if (sign.kind === 'assignment') {
    if (!isLoaderVariable(sign.name)) return null;
    return { code: 'CF507', message: `the command sets loader variable ${makeVisible(sign.name)}=${quoteVisibly(sign.value)}`, hint: 'do not change how programs load code from a job; if needed, install it in the runner image', evidence: `${sign.name}=${sign.value}` };
  }
  if (sign.kind === 'inline-code') {
    return { code: 'CF508', message: `${makeVisible(sign.program)} ${makeVisible(sign.flag)} loads or evaluates code: ${quoteVisibly(sign.code)}`, hint: 'run a script file committed to the repository instead of code given on the command line', evidence: `${sign.program} ${sign.flag} ${sign.code}` };
  }
  if (sign.kind === 'result-in-code') {
    const where = sign.program === sign.code ? 'is the program the job runs' : `is placed inside code that ${makeVisible(sign.program)} runs: ${quoteVisibly(sign.code)}`;
    return { code: 'CF518', message: `a step result ${where}; what the earlier step writes would run as code`, hint: 'pass the result as data: an argument after the script (sh -c \'echo "$1"\' sh "{{steps.NAME.output.KEY}}") or an env value read as "$NAME", never inside the script text', evidence: `${sign.program} ${sign.code}` };
  }
  return { code: 'CF510', message: `${makeVisible(sign.program)} fetches or decodes code and executes it: ${quoteVisibly(sign.code)}`, hint: 'commit the script to the repository and run that file; never pipe downloaded code into an interpreter', evidence: `${sign.program} ${sign.code}` };
}

/**
 * The HIGH signs of a definition's jobs (its one job, or every step), whatever they were before.
 * A step's evidence starts with its name, so a sign moving to another step is raised again there.
 */
export function findJobSigns(def: Definition): JobConcern[] {
  return executableJobsOf(def.job).flatMap(({ path, stepName, job }) =>
    findSignsOfJob(withInputs(job, def.inputs), path).map((concern) => (stepName === null ? concern : { ...concern, evidence: `${stepName}: ${concern.evidence}`, message: `step ${quoteVisibly(stepName)}: ${concern.message}` })),
  );
}

const INPUT_PLACEHOLDER = /\{\{\s*inputs\.([^{}]*?)\s*\}\}/g;

/**
 * The job with each `{{inputs.NAME}}` replaced by that input's template, as the runner will
 * substitute it (the template's own `{{businessDate}}` stays a placeholder): an input is literal
 * text the author chose, so `sh -c {{inputs.script}}` is judged by the script it runs.
 */
function withInputs(job: JobDefinition, inputs: Record<string, string> | undefined): JobDefinition {
  if (!inputs || job.type === 'queue') return job;
  const substitute = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(INPUT_PLACEHOLDER, (whole, name: string) => (Object.hasOwn(inputs, name) ? inputs[name]! : whole));
    if (Array.isArray(value)) return value.map(substitute);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item)]));
    return value;
  };
  return substitute(job) as JobDefinition;
}

function findSignsOfJob(job: JobDefinition, base: string): JobConcern[] {
  const concerns: JobConcern[] = [];
  const add = (code: JobRiskCode, path: string, evidence: string, message: string, hint: string) => concerns.push({ code, level: 'HIGH', message, hint, path, evidence });
  for (const [path, text] of jobStrings(job, base)) {
    if (hasHiddenCharacters(text.replace(/[\n\t]/g, ''))) add('CF513', path, `${path} ${text}`, `${displayPath(path)} contains control, bidi or invisible characters: ${quoteVisibly(text)}`, 'remove them: what a reviewer reads must be what runs');
  }
  if (job.type === 'queue') {
    // A sql hand-off calls a database function with the runner's role: code execution in the database.
    if (job.system === 'sql') add('CF515', 'job.function', `${job.function} ${canonicalJson(job.arguments)}`, `the job calls database function ${quoteVisibly(job.function)} with the runner's database role (${describeQueueTarget(job)})`, 'review that function as code: it runs in the database with every privilege the runner has; grant the runner role EXECUTE on it and nothing more than it needs');
    return concerns;
  }
  const secretValues = job.type === 'command' ? job.env : job.headers;
  const field = job.type === 'command' ? 'env' : 'headers';
  for (const [key, value] of Object.entries(secretValues)) {
    if (typeof value !== 'string' && isCronformConfiguration(value.fromEnv)) {
      add('CF512', `${base}.${field}.${key}`, `${key} ${value.fromEnv}`, `${displayPath(`${base}.${field}.${key}`)} reads ${makeVisible(value.fromEnv)}, cronform's own configuration: the job would get the runner's database or settings`, 'give the job its own variable (e.g. REPORTS_DATABASE_URL) with only the access it needs');
    }
  }
  if (job.type === 'http') return concerns;
  for (const [key, value] of Object.entries(job.env)) {
    if (isLoaderVariable(key)) add('CF507', `${base}.env.${key}`, `${key}=${canonicalJson(value)}`, `${displayPath(`${base}.env.${key}`)} sets loader variable ${makeVisible(key)}=${describeEnv(value)}: it changes which code runs`, 'do not change how programs load code from a job; if needed, install it in the runner image');
  }
  if (isOutsideRepository(job.cwd)) add('CF509', `${base}.cwd`, job.cwd, `cwd ${quoteVisibly(job.cwd)} is outside the repository: the job runs files no review covers`, 'use a directory inside the repository (relative, without ..)');
  for (const sign of analyzeCommand(job.command)) {
    const described = describeSign(sign);
    if (described) concerns.push({ ...described, level: 'HIGH', path: `${base}.command` });
  }
  return concerns;
}

/**
 * The job findings of a change: the HIGH signs the job brings (all of them for a created or
 * restored schedule), an http job moved to another host, and MEDIUM for any other job change
 * unless the caller already raised one for its target (CF504).
 */
export function assessJob(before: Definition | null, after: Definition | null, options: { wholeJob: boolean; targetChanged: boolean }): JobConcern[] {
  if (!after) return [];
  const known = new Set(options.wholeJob || !before ? [] : findJobSigns(before).map((c) => `${c.code} ${c.evidence}`));
  const concerns = findJobSigns(after).filter((c) => !known.has(`${c.code} ${c.evidence}`));
  if (!before) return concerns;
  // A host is new when no http job (or step) of the stored definition called it.
  const previousHosts = executableJobsOf(before.job).flatMap(({ job }) => (job.type === 'http' ? [hostOf(job.url)] : []));
  for (const { path, stepName, job } of executableJobsOf(after.job)) {
    if (job.type !== 'http') continue;
    const host = hostOf(job.url);
    if (previousHosts.includes(host)) continue;
    const from = previousHosts.length > 0 ? `was ${[...new Set(previousHosts)].map((h) => `host ${quoteVisibly(h)}`).join(', ')}` : before.job.type === 'steps' ? 'no step called http before' : 'was a command job';
    const what = stepName === null ? 'the http job' : `step ${quoteVisibly(stepName)}`;
    concerns.push({ code: 'CF511', level: 'HIGH', path: `${path}.url`, evidence: host, message: `${what} now calls host ${quoteVisibly(host)} (${from}): ${quoteVisibly(job.url)}`, hint: 'confirm the new host is trusted: it receives the headers, secrets included, and the payload' });
  }
  // A queue job moved to another database is a new target, like an http job's new host: the
  // runner connects there with whatever credentials that variable holds, and the jobs go there.
  if (before.job.type === 'queue' && after.job.type === 'queue') {
    const was = before.job.url?.fromEnv ?? null;
    const now = after.job.url?.fromEnv ?? null;
    if (was !== now) {
      const name = (value: string | null) => (value === null ? "cronform's own database" : `the database in $${makeVisible(value)}`);
      concerns.push({ code: 'CF516', level: 'HIGH', path: 'job.url', evidence: now ?? '', message: `the queue job now goes to ${name(now)} (was ${name(was)})`, hint: 'confirm that database and its queue are the intended ones: the runner connects to it and every run is handed there' });
    }
  }
  // Inputs are substituted into the job (`{{inputs.NAME}}`), the payload is what the job (or a
  // queue's worker, whose whole input it is) acts on, and the business date's offset moves the
  // date it is given (`{{businessDate}}`): changing any of them changes what runs.
  const changed = [
    ...diffFields(before.job, after.job, 'job'),
    ...diffFields(before.inputs ?? {}, after.inputs ?? {}, 'inputs'),
    ...diffFields(before.payload ?? {}, after.payload ?? {}, 'payload'),
    ...diffFields(before.businessDate ?? null, after.businessDate ?? null, 'businessDate'),
  ];
  if (changed.length > 0 && !options.targetChanged) {
    const fields = [...new Set(changed.map((c) => displayPath(c.path)))];
    concerns.push({ code: 'CF506', level: 'MEDIUM', path: changed[0]!.path, evidence: fields.join(), message: `job changed: ${fields.join(', ')}`, hint: 'review the job as it will run (shown in full under the change)' });
  }
  return concerns;
}
