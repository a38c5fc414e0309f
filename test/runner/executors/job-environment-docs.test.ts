/**
 * The README's "What a job receives" lists every variable the runner gives a job: a variable added
 * to the run context without a line there fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runContextEnvironment } from '../../../src/runner/executors/job-environment.js';
import { RUNNER_MARKER_ENV } from '../../../src/runner/job-reaper.js';
import { PROGRESS_FILE_ENV, RETRY_ITEMS_FILE_ENV } from '../../../src/shared/progress-line.js';

function readmeSection(title: string): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`### ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf('\n#', start + title.length + 5);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('the README on what a job receives', () => {
  it('names every variable of the run context, the progress channel and the reaper marker', () => {
    const everything = runContextEnvironment({
      runId: 1, schedule: 's', scheduledFor: '2026-12-01T00:00:00.000Z', businessDate: '2026-12-01', idempotencyKey: 'k', attempt: 1, trigger: 'DRY_RUN', payload: {},
      maxAffected: 10, inputs: {}, upstreamRunId: 2, upstreamRunIds: { a: 2 },
      step: { name: 'one', outputFile: 'out.json', stepsDir: 'steps', results: {} },
    });
    const names = [...Object.keys(everything), PROGRESS_FILE_ENV, RETRY_ITEMS_FILE_ENV, RUNNER_MARKER_ENV];
    expect(names.length).toBeGreaterThan(15);
    const section = readmeSection('What a job receives');
    expect(names.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });
});
