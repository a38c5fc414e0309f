/**
 * `cronform init`: what a repository needs to start using cronform, written once. `schedules/`
 * with a Policy and one example that runs without any secret (so the first `cronform dev` shows a
 * successful run within a minute), each with an editor modeline whose `$schema` resolves
 * (schema-location.ts), and the two GitHub workflows cronform ships (plan on pull requests, apply
 * on merge). An existing file is never overwritten without `force`, and never through a link.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunOperationError } from './runs/run-operation-error.js';
import { findSchemaPath, schemaModeline } from './schema-location.js';
import { inspectPath, makeOutputDirectory, writeFileWithoutLinks } from './write-without-links.js';

/** Both src/operations and dist/operations sit two levels below the package root. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WORKFLOW_FILES = ['cronform-plan.yml', 'cronform-apply.yml'];

export interface InitOptions {
  /** Absolute repository root to write into. */
  root: string;
  /** Manifest directory, relative to root. */
  dir: string;
  force: boolean;
  workflows: boolean;
}

export interface InitResult {
  written: string[];
  /** Relative to the manifest directory, or null when no installed schema was found. */
  schemaPath: string | null;
}

const POLICY = `apiVersion: cronform/v1
kind: Policy
metadata:
  name: default
  description: Limits for every schedule in this repository
spec:
  minInterval: 1m
  maxRunsPerDay: 1440
  queues:
    default: { concurrency: 5 }
`;

const EXAMPLE = `apiVersion: cronform/v1
kind: Schedule
metadata:
  name: hello
  description: Example job; replace the command with your own. Needs no secret.
  owner: your-team
spec:
  cron: "* * * * *"
  timezone: UTC
  job:
    type: command
    command: ["node", "-e", "console.log('hello from cronform, business date', process.env.CRONFORM_BUSINESS_DATE)"]
    # A secret is passed by reference, never written here: the runner reads it from its environment.
    # env:
    #   API_TOKEN: { fromEnv: API_TOKEN }
  timeout: 30s
`;

export function initRepository(options: InitOptions): InitResult {
  const manifestDir = path.resolve(options.root, options.dir);
  // The schema is looked up where the manifests will be: node_modules/cronform once installed.
  const schemaPath = findSchemaPath(manifestDir);
  const files = [
    { path: path.join(manifestDir, 'policy.yaml'), text: `${schemaModeline(schemaPath)}${POLICY}` },
    { path: path.join(manifestDir, 'hello.yaml'), text: `${schemaModeline(schemaPath)}${EXAMPLE}` },
  ];
  if (options.workflows) {
    for (const name of WORKFLOW_FILES) {
      files.push({ path: path.join(options.root, '.github', 'workflows', name), text: readFileSync(path.join(PACKAGE_ROOT, '.github', 'workflows', name), 'utf8') });
    }
  }
  const links = files.filter((file) => inspectPath(file.path) === 'link');
  if (links.length > 0) throw new RunOperationError(`${links[0]!.path} is a symbolic link; cronform does not write through links`);
  const taken = files.filter((file) => inspectPath(file.path) !== 'missing');
  if (taken.length > 0 && !options.force) {
    throw new RunOperationError(`${taken.map((file) => path.relative(options.root, file.path)).join(', ')} already exist${taken.length === 1 ? 's' : ''}: nothing was written; pass --force to overwrite`);
  }
  for (const directory of new Set(files.map((file) => path.dirname(file.path)))) {
    const made = makeOutputDirectory(directory);
    if (!made.ok) throw new RunOperationError(`${directory} ${made.reason}`);
  }
  for (const file of files) {
    const written = writeFileWithoutLinks(file.path, file.text, { overwrite: options.force });
    if (!written.ok) throw new RunOperationError(`${file.path} ${written.reason}`);
  }
  return { written: files.map((file) => path.relative(options.root, file.path).split(path.sep).join('/')), schemaPath: schemaPath ?? null };
}
