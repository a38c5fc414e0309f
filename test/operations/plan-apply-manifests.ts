/**
 * In-memory manifests for the plan/apply suites: one Schedule per file, written as YAML so the
 * real parse → validate → compile pipeline runs and findings carry real `file:line:col`.
 */
import { stringify } from 'yaml';
import { compileSources, type CompileResult } from '../../src/compile/compile-sources.js';
import type { ManifestSource } from '../../src/manifest/load.js';

/** 2026-11-29T12:00:00Z: a Sunday, 21:00 in Seoul; no DST transition in the next 35 days anywhere used here. */
export const PLAN_NOW_MS = Date.parse('2026-11-29T12:00:00Z');

export interface ScheduleOptions {
  spec?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export function scheduleSource(name: string, options: ScheduleOptions = {}): ManifestSource {
  const document = {
    apiVersion: 'cronform/v1',
    kind: 'Schedule',
    metadata: { name, owner: 'platform-team', ...options.metadata },
    spec: { cron: '0 3 * * *', timezone: 'UTC', job: { type: 'command', command: ['node', `jobs/${name}.js`] }, ...options.spec },
  };
  return { file: `schedules/${name}.yaml`, text: stringify(document) };
}

export function policySource(spec: Record<string, unknown>): ManifestSource {
  return { file: 'schedules/policy.yaml', text: stringify({ apiVersion: 'cronform/v1', kind: 'Policy', metadata: { name: 'default' }, spec }) };
}

/** Compiles and insists the manifests are valid: a test manifest with an error is a broken test. */
export function compileValid(sources: ManifestSource[], nowMs = PLAN_NOW_MS): CompileResult {
  const compiled = compileSources(sources, nowMs);
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`test manifests are invalid: ${JSON.stringify(errors, null, 2)}`);
  return compiled;
}
