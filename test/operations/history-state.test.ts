import { describe, expect, it } from 'vitest';
import { versionState } from '../../src/operations/history.js';

describe('history state of a version', () => {
  it('keeps the status of the latest version and marks replaced ones SUPERSEDED', () => {
    expect(versionState('ACTIVE', true)).toBe('ACTIVE');
    expect(versionState('ARCHIVED', true)).toBe('ARCHIVED');
    expect(versionState('ACTIVE', false)).toBe('SUPERSEDED');
    // An archive stays what it recorded even once the schedule came back.
    expect(versionState('ARCHIVED', false)).toBe('ARCHIVED');
  });
});
