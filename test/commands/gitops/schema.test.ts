import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { captureOutput } from '@oclif/test';
import { describe, expect, it } from 'vitest';
import Schema from '../../../src/commands/schema.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('cronform schema', () => {
  it('prints the shipped JSON Schema byte for byte', async () => {
    const { stdout, error } = await captureOutput(() => Schema.run([], repoRoot));
    expect(error).toBeUndefined();
    const shipped = readFileSync(new URL('../../../schema/cronform.schema.json', import.meta.url), 'utf8');
    expect(stdout.trimEnd()).toBe(shipped.trimEnd());
    expect(JSON.parse(stdout)).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'CronformManifest' });
  });
});
