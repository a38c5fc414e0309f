/**
 * Rules across schedules for `spec.after` (docs/workflows.md, Dependencies): every upstream is a
 * schedule of this repository, no schedule depends on itself through any chain (a cycle would
 * never start, or with a deadline would only ever be MISSED), and a disabled upstream is worth a
 * warning (its dependents will not run either). Pure; located at the `after` entry.
 */
import { DiagnosticCodes } from '../shared/diagnostic-codes.js';
import type { Diagnostic } from '../shared/diagnostics.js';

export interface DependencyNode {
  name: string;
  enabled: boolean;
  /** Upstream names, in manifest order. */
  after: string[];
  file: string;
  /** Where `spec.after[index].schedule` is written. */
  locateEntry(index: number): { line: number; column: number };
}

/**
 * `nodes`: the schedules that declare `after`; `known`: every schedule name in the repository
 * (with whether it is enabled), valid or not, so a broken upstream manifest reports its own errors
 * instead of making each dependent's reference look unknown.
 */
export function checkDependencies(nodes: readonly DependencyNode[], known: ReadonlyMap<string, { enabled: boolean }>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const at = (node: DependencyNode, index: number) => ({ file: node.file, ...node.locateEntry(index), path: `spec.after.${index}.schedule` });
  const byName = new Map(nodes.map((node) => [node.name, node]));
  for (const node of nodes) {
    node.after.forEach((upstream, index) => {
      const target = known.get(upstream);
      if (node.after.indexOf(upstream) !== index) {
        // A join waits for each upstream once; a second entry would look like a second condition.
        diagnostics.push({ severity: 'error', code: DiagnosticCodes.DUPLICATE_UPSTREAM, message: `spec.after names ${JSON.stringify(upstream)} twice`, hint: 'name each upstream schedule once', ...at(node, index) });
      } else if (!target) {
        diagnostics.push({ severity: 'error', code: DiagnosticCodes.UNKNOWN_UPSTREAM, message: `spec.after names ${JSON.stringify(upstream)}, which is not a schedule in this repository`, hint: 'name the metadata.name of a Schedule manifest', ...at(node, index) });
      } else if (!target.enabled) {
        diagnostics.push({ severity: 'warning', code: DiagnosticCodes.UPSTREAM_DISABLED, message: `upstream ${JSON.stringify(upstream)} is disabled: ${node.name} will not run until it is enabled again`, ...at(node, index) });
      }
    });
  }
  // Depth-first over the after-edges; each cycle is reported once, at the entry of its
  // alphabetically first member, printing the whole loop.
  const state = new Map<string, 'open' | 'done'>();
  const reported = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    const node = byName.get(name);
    if (!node || state.get(name) === 'done') return;
    if (state.get(name) === 'open') {
      const cycle = path.slice(path.indexOf(name));
      const key = [...cycle].sort().join(',');
      if (reported.has(key)) return;
      reported.add(key);
      const first = [...cycle].sort()[0]!;
      const start = cycle.indexOf(first);
      const loop = [...cycle.slice(start), ...cycle.slice(0, start), first];
      const owner = byName.get(first)!;
      const index = owner.after.indexOf(loop[1]!);
      diagnostics.push({
        severity: 'error',
        code: DiagnosticCodes.DEPENDENCY_CYCLE,
        message: cycle.length === 1 ? `${first} depends on itself` : `dependency cycle: ${loop.join(' → ')}`,
        hint: 'a schedule in a cycle would wait for itself forever: remove one spec.after entry of the loop',
        ...at(owner, index),
      });
      return;
    }
    state.set(name, 'open');
    for (const upstream of node.after) visit(upstream, [...path, name]);
    state.set(name, 'done');
  };
  for (const node of [...nodes].sort((a, b) => (a.name < b.name ? -1 : 1))) visit(node.name, []);
  return diagnostics;
}
