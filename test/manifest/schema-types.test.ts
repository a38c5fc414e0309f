import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { describe, expect, it } from 'vitest';
import type { CommandJob, CronformManifest, HttpJob, PolicyManifest, ScheduleManifest } from '../../src/manifest/schema-types.js';
import { repoRoot } from './check-manifests.js';

const schemaPath = path.join(repoRoot, 'schema/cronform.schema.json');
const typesPath = path.join(repoRoot, 'src/manifest/schema-types.ts');

/** The banner passed by `npm run gen:types`, read from package.json so the two cannot disagree. */
function readBannerComment(): string {
  const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const banner = /--bannerComment '([^']*)'/.exec(scripts['gen:types'] ?? '')?.[1];
  if (banner === undefined) throw new Error('scripts.gen:types must pass --bannerComment');
  return banner;
}

describe('src/manifest/schema-types.ts', () => {
  it('is what `npm run gen:types` generates from the schema today', async () => {
    const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as JSONSchema;
    const generated = await compile(schema, 'cronform.schema.json', {
      bannerComment: readBannerComment(),
      cwd: path.dirname(schemaPath),
    });
    // On failure: run `npm run gen:types` and commit the result with the schema change.
    expect(readFileSync(typesPath, 'utf8')).toBe(generated);
  });

  it('names the types after the schema titles', () => {
    const job: CommandJob = { type: 'command', command: ['node', 'jobs/daily-report.js'], env: { T: { fromEnv: 'T' } } };
    const probe: HttpJob = { type: 'http', url: 'https://example.com', expectStatus: ['200-299', 204] };
    const schedule: ScheduleManifest = {
      apiVersion: 'cronform/v1',
      kind: 'Schedule',
      metadata: { name: 'daily-report' },
      spec: { cron: '30 19 * * *', timezone: 'Asia/Seoul', job },
    };
    const policy: PolicyManifest = { apiVersion: 'cronform/v1', kind: 'Policy', metadata: { name: 'default' }, spec: {} };
    const manifests: CronformManifest[] = [schedule, policy, { ...schedule, spec: { ...schedule.spec, job: probe } }];
    expect(manifests.map((m) => m.kind)).toEqual(['Schedule', 'Policy', 'Schedule']);
  });
});
