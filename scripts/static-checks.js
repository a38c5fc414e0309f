#!/usr/bin/env node
/**
 * Lint and typecheck side by side (`npm test` runs this before vitest): each is one single-threaded
 * process, so on two cores running them together takes the time of the longer one. Each tool's
 * output is printed whole when it ends, never interleaved; the exit code is the first failure's.
 */
import { spawn } from 'node:child_process';

const checks = [
  { name: 'lint', args: ['run', '--silent', 'lint'] },
  { name: 'typecheck', args: ['run', '--silent', 'typecheck'] },
];

function runCheck({ name, args }) {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const status = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`${output}${output && !output.endsWith('\n') ? '\n' : ''}${name}: ${status}\n`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(checks.map(runCheck));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
