import { describe, expect, it } from 'vitest';
import { checkRepositoryRules } from '../../src/manifest/repo-rules.js';
import { parseOne } from './check-manifests.js';

const schedule = (name: string, file: string) =>
  parseOne(`# ${file}\napiVersion: cronform/v1\nkind: Schedule\nmetadata:\n  name: ${name}\nspec: {}\n`, file);
const policy = (file: string) => parseOne(`apiVersion: cronform/v1\nkind: Policy\nmetadata: { name: default }\n`, file);

describe('checkRepositoryRules', () => {
  it('accepts distinct names and a single policy', () => {
    expect(checkRepositoryRules([schedule('a', 'a.yaml'), schedule('b', 'b.yaml'), policy('p.yaml')])).toEqual([]);
  });

  it('CF015: reports every later schedule with a used name, naming the first occurrence', () => {
    const docs = [schedule('export', 'one.yaml'), schedule('other', 'two.yaml'), schedule('export', 'three.yaml'), schedule('export', 'four.yaml')];
    expect(checkRepositoryRules(docs).map((d) => [d.code, d.file, d.line, d.column, d.path, d.message])).toEqual([
      ['CF015', 'three.yaml', 5, 9, 'metadata.name', 'schedule name "export" is already used at one.yaml:5:9'],
      ['CF015', 'four.yaml', 5, 9, 'metadata.name', 'schedule name "export" is already used at one.yaml:5:9'],
    ]);
  });

  it('CF016: reports every Policy after the first', () => {
    const docs = [policy('a.yaml'), schedule('default', 'b.yaml'), policy('c.yaml')];
    expect(checkRepositoryRules(docs).map((d) => [d.code, d.file, d.line, d.column, d.message])).toEqual([
      ['CF016', 'c.yaml', 2, 7, 'only one Policy is allowed per repository; the first is at a.yaml:2:7'],
    ]);
  });

  it('leaves documents without a usable name to the schema check', () => {
    const nameless = parseOne('kind: Schedule\nmetadata: { name: 42 }\n');
    expect(checkRepositoryRules([nameless, nameless, parseOne('kind: Job\n')])).toEqual([]);
  });
});
