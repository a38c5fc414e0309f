/**
 * `cronform validate --format github|sarif`: diagnostics for CI, pure.
 *
 * github: workflow commands (`::error file=…,line=…::…`) become annotations on the manifest lines
 * of a pull request. GitHub shows at most 10 error and 10 warning annotations per step and drops
 * the rest silently, so only the first of each are printed as commands; the complete list goes to
 * the job summary, and a notice says how many are only there.
 *
 * sarif: SARIF 2.1.0 for code scanning (`github/codeql-action/upload-sarif`).
 */
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import { formatLocation, type Diagnostic } from '../shared/diagnostics.js';
import { escapeMarkdown, formatMarkdownCell } from '../plan/render-markdown-table.js';

/** GitHub's per-step limit for each annotation level. */
export const ANNOTATIONS_PER_LEVEL = 10;
/** The job summary takes at most 1 MiB per step; the table stops well before that. */
const MAX_SUMMARY_ROWS = 2_000;

export interface GithubReport {
  /** Workflow command lines for stdout. */
  commands: string[];
  /** Markdown for `$GITHUB_STEP_SUMMARY` listing every diagnostic. */
  summary: string;
  /** Diagnostics that got no annotation (they are in the summary). */
  notAnnotated: Diagnostic[];
}

export function renderGithubReport(diagnostics: readonly Diagnostic[], headline: string): GithubReport {
  const commands: string[] = [];
  const notAnnotated: Diagnostic[] = [];
  const shown = { error: 0, warning: 0 };
  for (const diagnostic of diagnostics) {
    if (shown[diagnostic.severity] >= ANNOTATIONS_PER_LEVEL) {
      notAnnotated.push(diagnostic);
      continue;
    }
    shown[diagnostic.severity] += 1;
    commands.push(formatWorkflowCommand(diagnostic));
  }
  if (notAnnotated.length > 0) {
    commands.push(`::notice title=cronform validate::${escapeData(`${notAnnotated.length} more problems are not annotated (GitHub shows ${ANNOTATIONS_PER_LEVEL} per level); the job summary lists all ${diagnostics.length}`)}`);
  }
  return { commands, summary: renderSummary(diagnostics, headline), notAnnotated };
}

/** `::error file=schedules/a.yaml,line=7,col=13,title=CF012::timezone must be…%0Ahint: …` */
export function formatWorkflowCommand(diagnostic: Diagnostic): string {
  const properties: string[] = [];
  if (diagnostic.file) properties.push(`file=${escapeProperty(diagnostic.file)}`);
  if (diagnostic.file && diagnostic.line !== undefined) {
    properties.push(`line=${diagnostic.line}`);
    if (diagnostic.column !== undefined) properties.push(`col=${diagnostic.column}`);
  }
  properties.push(`title=${escapeProperty(`cronform ${diagnostic.code}`)}`);
  const message = diagnostic.hint ? `${diagnostic.message}\nhint: ${diagnostic.hint}` : diagnostic.message;
  return `::${diagnostic.severity} ${properties.join(',')}::${escapeData(message)}`;
}

/** Workflow command data: `%`, CR and LF are the only characters with a meaning there. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values also end at `,` and `:`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function renderSummary(diagnostics: readonly Diagnostic[], headline: string): string {
  const lines = ['## cronform validate', '', escapeMarkdown(headline), ''];
  if (diagnostics.length === 0) return `${lines.join('\n')}\n`;
  lines.push('| location | level | code | problem |', '|---|---|---|---|');
  for (const diagnostic of diagnostics.slice(0, MAX_SUMMARY_ROWS)) {
    const problem = diagnostic.hint ? `${diagnostic.message} (hint: ${diagnostic.hint})` : diagnostic.message;
    lines.push(`| ${formatMarkdownCell(formatLocation(diagnostic) || '—')} | ${diagnostic.severity} | ${diagnostic.code} | ${formatMarkdownCell(problem)} |`);
  }
  if (diagnostics.length > MAX_SUMMARY_ROWS) {
    lines.push('', `${diagnostics.length - MAX_SUMMARY_ROWS} more problems not listed: run \`cronform validate\` locally for all of them.`);
  }
  return `${lines.join('\n')}\n`;
}

const RULE_NAMES = new Map<string, string>(Object.entries(DiagnosticCodes).map(([key, code]) => [code, key]));

/** SARIF 2.1.0 log with one run; rules are the codes that occur, results keep the input order. */
export function renderSarif(diagnostics: readonly Diagnostic[], tool: { version: string }): string {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const rules = codes.map((code) => {
    const key = RULE_NAMES.get(code);
    return {
      id: code,
      ...(key ? { name: toPascalCase(key), shortDescription: { text: key.toLowerCase().replace(/_/g, ' ') } } : {}),
    };
  });
  const results = diagnostics.map((diagnostic) => ({
    ruleId: diagnostic.code,
    ruleIndex: codes.indexOf(diagnostic.code),
    level: diagnostic.severity,
    message: { text: diagnostic.hint ? `${diagnostic.message}\nhint: ${diagnostic.hint}` : diagnostic.message },
    locations: diagnostic.file
      ? [
          {
            physicalLocation: {
              artifactLocation: { uri: toUri(diagnostic.file), uriBaseId: '%SRCROOT%' },
              ...(diagnostic.line !== undefined ? { region: { startLine: diagnostic.line, startColumn: diagnostic.column ?? 1 } } : {}),
            },
          },
        ]
      : [],
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'cronform', version: tool.version, rules } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function toPascalCase(key: string): string {
  return key
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** SARIF wants URI references: forward slashes, reserved characters percent-encoded. */
function toUri(file: string): string {
  return file.split(/[\\/]/).map(encodeURIComponent).join('/');
}
