import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { initRepository } from '../../src/operations/init-repository.js';
import { validateManifests } from '../../src/operations/validate.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'cronform-init-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function userRepository(name: string): string {
  const root = path.join(scratch, name);
  mkdirSync(path.join(root, 'node_modules', 'cronform', 'schema'), { recursive: true });
  copyFileSync(path.join(repoRoot, 'schema', 'cronform.schema.json'), path.join(root, 'node_modules', 'cronform', 'schema', 'cronform.schema.json'));
  return root;
}

describe('cronform init', () => {
  it('writes valid manifests whose $schema resolves, and the two workflows', async () => {
    const root = userRepository('fresh');
    const result = initRepository({ root, dir: 'schedules', force: false, workflows: true });
    expect(result.written).toEqual(['schedules/policy.yaml', 'schedules/hello.yaml', '.github/workflows/cronform-plan.yml', '.github/workflows/cronform-apply.yml']);
    for (const file of ['policy.yaml', 'hello.yaml']) {
      const text = readFileSync(path.join(root, 'schedules', file), 'utf8');
      const schemaPath = /^# yaml-language-server: \$schema=(.+)$/m.exec(text)?.[1];
      expect(schemaPath).toBe('../node_modules/cronform/schema/cronform.schema.json');
      expect(existsSync(path.resolve(root, 'schedules', schemaPath!))).toBe(true);
    }
    const validated = await validateManifests(['schedules'], { cwd: root, nowMs: Date.parse('2026-12-01T00:00:00Z') });
    expect(validated.diagnostics).toEqual([]);
    expect(validated.schedules.map((s) => s.definition.name)).toEqual(['hello']);
    expect(readFileSync(path.join(root, '.github', 'workflows', 'cronform-plan.yml'), 'utf8')).toBe(readFileSync(path.join(repoRoot, '.github', 'workflows', 'cronform-plan.yml'), 'utf8'));
  });

  it('overwrites nothing without --force, and writes nothing when one file exists', () => {
    const root = userRepository('existing');
    initRepository({ root, dir: 'ops/schedules', force: false, workflows: false });
    expect(existsSync(path.join(root, '.github'))).toBe(false);
    rmSync(path.join(root, 'ops', 'schedules', 'hello.yaml'));
    expect(() => initRepository({ root, dir: 'ops/schedules', force: false, workflows: false })).toThrow('ops/schedules/policy.yaml already exists: nothing was written; pass --force to overwrite');
    expect(existsSync(path.join(root, 'ops', 'schedules', 'hello.yaml'))).toBe(false);
    expect(initRepository({ root, dir: 'ops/schedules', force: true, workflows: false }).written).toHaveLength(2);
  });
});
