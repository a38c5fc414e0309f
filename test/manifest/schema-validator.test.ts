import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './check-manifests.js';

const generatorPath = path.join(repoRoot, 'scripts/generate-schema-validator.js');
const validatorPath = path.join(repoRoot, 'src/manifest/schema-validator.generated.ts');

describe('src/manifest/schema-validator.generated.ts', () => {
  it('is what `npm run gen:validator` generates from the schema today', () => {
    const generated = execFileSync(process.execPath, [generatorPath, '--stdout'], { cwd: repoRoot, encoding: 'utf8' });
    // On failure: run `npm run gen:validator` (or `npm run build`) and commit the result with the schema change.
    expect(readFileSync(validatorPath, 'utf8')).toBe(generated);
  });

  it('is the script `npm run build` runs before compiling', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['gen:validator']).toBe('node scripts/generate-schema-validator.js');
    expect(scripts.build).toMatch(/^npm run gen:validator && tsc /);
  });
});
