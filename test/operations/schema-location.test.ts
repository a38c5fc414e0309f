import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findSchemaPath } from '../../src/operations/schema-location.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-schema-location-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the $schema path of written manifests', () => {
  it('points into node_modules/cronform from any depth of a repository that installed it', () => {
    const repo = path.join(scratch, 'user-repo');
    mkdirSync(path.join(repo, 'node_modules', 'cronform', 'schema'), { recursive: true });
    copyFileSync(path.join(repoRoot, 'schema', 'cronform.schema.json'), path.join(repo, 'node_modules', 'cronform', 'schema', 'cronform.schema.json'));
    expect(findSchemaPath(path.join(repo, 'schedules'))).toBe('../node_modules/cronform/schema/cronform.schema.json');
    expect(findSchemaPath(path.join(repo, 'ops', 'jobs', 'nightly'))).toBe('../../../node_modules/cronform/schema/cronform.schema.json');
  });

  it("points at schema/ in cronform's own repository", () => {
    expect(findSchemaPath(path.join(repoRoot, 'schedules'))).toBe('../schema/cronform.schema.json');
  });

  it('is absent where no schema resolves, even beside a schema/ of another package', () => {
    const other = path.join(scratch, 'other');
    mkdirSync(path.join(other, 'schema'), { recursive: true });
    writeFileSync(path.join(other, 'schema', 'cronform.schema.json'), '{}');
    writeFileSync(path.join(other, 'package.json'), '{"name":"not-cronform"}');
    expect(findSchemaPath(path.join(other, 'schedules'))).toBeUndefined();
  });
});
