/**
 * The workflows users copy: valid YAML, the triggers and guarantees the GitOps guide promises, and
 * every `cronform` invocation in a `run:` script names a command and flags that exist. Each
 * invocation's command runs with `--help` on the CLI built from this source tree (dist/, built once
 * per run by the system project's globalSetup), through oclif's own argv routing, in-process: a
 * process per invocation would only test Node's start-up again (exit-codes-cli and command-table
 * spawn bin/run.js).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '@oclif/core';
import { captureOutput } from '@oclif/test';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { commands } from '../../../src/commands/index.js';
import { splitShellWords } from '../../../src/import/shell-words.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const workflowDir = path.join(repoRoot, '.github', 'workflows');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, { if?: string; environment?: string; steps: Step[] }>;
}

function loadWorkflow(name: string): Workflow {
  const doc = parseDocument(readFileSync(path.join(workflowDir, name), 'utf8'), { uniqueKeys: true });
  expect(doc.errors, `${name} is not valid YAML`).toEqual([]);
  return doc.toJS() as Workflow;
}

interface Invocation {
  workflow: string;
  line: string;
  id: string;
  idWords: string[];
  /** Everything after `cronform`. */
  args: string[];
  flags: Array<{ name: string; value: string | undefined }>;
}

type CommandClass = { flags?: Record<string, { type: string; options?: readonly string[] }> };
const table = commands as unknown as Record<string, CommandClass>;

/** Each `cronform …` in the run scripts, with its command id and flags (`$VAR` resolved from the workflow env). */
function findInvocations(name: string, workflow: Workflow): Invocation[] {
  const invocations: Invocation[] = [];
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      for (const line of (step.run ?? '').replace(/\\\n/g, ' ').split('\n')) {
        const words = splitShellWords(line).words;
        const start = words.indexOf('cronform');
        if (start < 0) continue;
        const end = words.findIndex((word, i) => i > start && /^(?:[0-9]*[<>|;&]|&&|\|\|)/.test(word));
        const args = words.slice(start + 1, end < 0 ? undefined : end);
        const idWords = table[`${args[0]}:${args[1]}`] ? args.slice(0, 2) : args.slice(0, 1);
        const flags: Invocation['flags'] = [];
        const rest = args.slice(idWords.length);
        rest.forEach((word, i) => {
          if (!word.startsWith('--')) return;
          const [flag, inline] = word.slice(2).split('=', 2) as [string, string | undefined];
          const next = rest[i + 1];
          const value = inline ?? (next !== undefined && !next.startsWith('--') ? next : undefined);
          flags.push({ name: flag, value: value?.replace(/^\$([A-Z_]+)$/, (whole, variable: string) => workflow.env?.[variable] ?? whole) });
        });
        invocations.push({ workflow: name, line: line.trim(), id: idWords.join(':'), idWords, args, flags });
      }
    }
  }
  return invocations;
}

const plan = loadWorkflow('cronform-plan.yml');
const apply = loadWorkflow('cronform-apply.yml');
const invocations = [...findInvocations('cronform-plan.yml', plan), ...findInvocations('cronform-apply.yml', apply)];

describe('the GitOps workflows', () => {
  it('plan runs on pull requests touching schedules or the schema, and may comment', () => {
    expect(plan.on.pull_request).toMatchObject({ paths: ['schedules/**', 'schema/**'], types: expect.arrayContaining(['labeled', 'unlabeled', 'synchronize']) });
    expect(plan.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(plan.env).toMatchObject({ CRONFORM_FAIL_ON: 'high', CRONFORM_ACCEPT_LABEL: 'cronform/accept-risk' });
    const steps = plan.jobs.plan!.steps;
    expect(steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
    // Fork pull requests have no write token: the comment step must not run for them.
    expect(steps.find((s) => s.name === 'Comment on the pull request')?.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
  });

  it('apply runs on pushes to main, one at a time, never cancelled', () => {
    expect(apply.on.push).toMatchObject({ branches: ['main'] });
    expect(apply.concurrency).toEqual({ group: 'cronform-apply', 'cancel-in-progress': false });
    expect(invocations.find((i) => i.id === 'apply')?.flags.map((f) => f.name)).toEqual(expect.arrayContaining(['auto-approve', 'actor', 'reason']));
  });

  it('plan ignores the accept label on a push and withdraws it', () => {
    const steps = plan.jobs.plan!.steps;
    const gated = steps.filter((s) => s.env?.ACCEPTED !== undefined);
    expect(gated.map((s) => s.name)).toEqual(['Job summary', 'Risk gate']);
    for (const step of gated) expect(step.env!.ACCEPTED).toMatch(/^\$\{\{ github\.event\.action != 'synchronize' && contains\(/);
    const withdraw = steps.find((s) => s.name === 'Withdraw the acceptance on a new push')!;
    expect(withdraw.if).toContain("github.event.action == 'synchronize'");
    expect(withdraw.run).toMatch(/gh api --method DELETE "repos\/\$GITHUB_REPOSITORY\/issues\/\$PR\/labels\//);
  });

  it('apply runs for main only, also when dispatched by hand, in a GitHub environment', () => {
    expect(apply.on).toHaveProperty('workflow_dispatch');
    const job = apply.jobs.apply!;
    expect(job.if).toBe("${{ github.ref == 'refs/heads/main' }}");
    expect(job.environment).toEqual(expect.any(String));
    // Belt and braces: the first step refuses any other ref, should the job condition be edited away.
    const first = job.steps[0]!;
    expect(first.env).toEqual({ REF: '${{ github.ref }}' });
    for (const ref of ['refs/heads/main', 'refs/heads/evil', 'refs/heads/main-not', 'refs/tags/main']) {
      const result = spawnSync('bash', ['-c', first.run!], { encoding: 'utf8', env: { PATH: process.env.PATH, REF: ref } });
      expect(result.status, ref).toBe(ref === 'refs/heads/main' ? 0 : 1);
    }
  });

  const all = { 'ci.yml': loadWorkflow('ci.yml'), 'cronform-plan.yml': plan, 'cronform-apply.yml': apply };
  const usesSteps = Object.entries(all).flatMap(([name, workflow]) => Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.uses).map((step) => ({ name, step }))));

  it('every workflow checks out and sets up Node (so the per-step checks below are never empty)', () => {
    for (const name of Object.keys(all)) {
      expect(usesSteps.filter((s) => s.name === name && s.step.uses!.startsWith('actions/checkout@')).length, name).toBeGreaterThan(0);
      expect(usesSteps.filter((s) => s.name === name && s.step.uses!.startsWith('actions/setup-node@')).length, name).toBeGreaterThan(0);
    }
  });

  it.each(usesSteps.filter(({ step }) => step.uses!.startsWith('actions/checkout@')))('$name: checkout keeps no credentials', ({ step }) => {
    expect(step.with?.['persist-credentials']).toBe(false);
  });

  it.each(usesSteps.filter(({ step }) => step.uses!.startsWith('actions/setup-node@')))('$name: setup-node installs a current LTS Node', ({ step }) => {
    expect([22, 24, '22', '24']).toContain(step.with?.['node-version']);
  });

  it.each(usesSteps)('$name: $step.uses is a current major', ({ step }) => {
    const [action, version] = step.uses!.split('@') as [string, string];
    const minimum: Record<string, number> = { 'actions/checkout': 5, 'actions/setup-node': 5, 'actions/upload-artifact': 6 };
    expect(Number(/^v(\d+)$/.exec(version)?.[1]), step.uses).toBeGreaterThanOrEqual(minimum[action] ?? 0);
  });

  const summarySteps = [
    { name: 'cronform-plan.yml', step: plan.jobs.plan!.steps.find((s) => s.name === 'Job summary')!, file: 'plan.txt' },
    { name: 'cronform-apply.yml', step: apply.jobs.apply!.steps.find((s) => s.name === 'Job summary and outcome')!, file: 'apply.log' },
  ];

  it.each(summarySteps)('$name: the job summary fences the output with more backticks than it holds', ({ step, file }) => {
    expect(step.run).not.toMatch(/echo '`{3,}/);
    const fenceLine = step.run!.split('\n').find((line) => line.trim().startsWith('fence='))!;
    expect(fenceLine).toBeDefined();
    const fenceFor = (content: string | null): string => {
      const dir = mkdtempSync(path.join(tmpdir(), 'cronform-fence-'));
      try {
        if (content !== null) writeFileSync(path.join(dir, file), content);
        const result = spawnSync('bash', ['-c', `${fenceLine}\nprintf %s "$fence"`], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
        expect(result.status, result.stderr).toBe(0);
        return result.stdout;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    expect(fenceFor(null)).toBe('```');
    expect(fenceFor('no backticks\n')).toBe('```');
    expect(fenceFor('a `code` span\n')).toBe('```');
    expect(fenceFor('x\n`````\n# cronform plan: no changes\n```````text\n')).toBe('````````');
    expect(step.run).toContain('echo "${fence}text"');
    expect(step.run).toContain('echo "$fence"');
  });

  it('the project CI still runs .ci/run', () => {
    const ci = loadWorkflow('ci.yml');
    expect(ci.jobs.test!.steps.some((s) => s.run === 'bash .ci/run')).toBe(true);
  });

  it('finds every cronform invocation', () => {
    expect(invocations.map((i) => `${i.workflow} ${i.id}`)).toEqual([
      'cronform-plan.yml validate',
      'cronform-plan.yml plan',
      'cronform-plan.yml plan',
      'cronform-plan.yml github:comment',
      'cronform-apply.yml apply',
      'cronform-apply.yml github:comment',
    ]);
  });

  it.each(invocations)('$workflow: $line uses a command and flags that exist', ({ id, flags }) => {
    const command = table[id];
    expect(command, `no command ${id}`).toBeDefined();
    for (const flag of flags) {
      const definition = command!.flags?.[flag.name];
      expect(definition, `${id} has no --${flag.name}`).toBeDefined();
      if (definition!.options && flag.value && !flag.value.includes('$')) expect(definition!.options).toContain(flag.value);
    }
  });
});

describe('the built CLI', () => {
  // dist/ is built once per run by the system project's globalSetup (test/support/built-cli-setup.ts);
  // package.json points oclif at its command table (dist/commands/index.js).
  it.each(invocations)('$workflow: $line --help', async ({ args, idWords }) => {
    const result = await captureOutput(() => run([...args, '--help'], repoRoot));
    const status = (result.error as { oclif?: { exit?: number } } | undefined)?.oclif?.exit ?? (result.error ? -1 : 0);
    expect(status, result.error?.message ?? result.stderr).toBe(0);
    expect(result.stdout).toContain('USAGE');
    expect(result.stdout).toContain(`$ cronform ${idWords.join(' ')}`);
  });
});
