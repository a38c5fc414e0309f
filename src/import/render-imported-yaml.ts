/**
 * An imported schedule as manifest text, with the comments that explain what the import decided
 * (where it came from, why a shell, why dayMatch, why these defaults). Pure.
 */
import { Document, isMap, isPair, isScalar, isSeq, Scalar, type Node, type Pair, type YAMLMap } from 'yaml';
import type { ImportedSchedule } from './convert-crontab.js';

export interface RenderImportedOptions {
  /** Path of the JSON Schema relative to the manifest, for the editor modeline. */
  schemaPath?: string | undefined;
}

export function renderImportedManifest(schedule: ImportedSchedule, options: RenderImportedOptions = {}): string {
  const doc = new Document(schedule.manifest);
  const header = options.schemaPath ? [` yaml-language-server: $schema=${options.schemaPath}`] : [];
  doc.commentBefore = [...header, ...schedule.notes.header.map((line) => ` ${line}`)].join('\n');

  const spec = doc.get('spec', true);
  const job = isMap(spec) ? spec.get('job', true) : undefined;
  if (!isMap(spec) || !isMap(job)) return doc.toString({ lineWidth: 0 });
  setCommentBefore(spec, 'dayMatch', schedule.notes.dayMatch);
  setCommentBefore(job, 'command', schedule.notes.command);
  setCommentBefore(spec, 'overlap', schedule.notes.defaults);

  // Commands and env values are arbitrary text: double quotes keep `|`, `>`, `#` and `: ` from
  // reading as YAML syntax, and keep the argv on one line like hand-written manifests.
  const command = job.get('command', true);
  if (isSeq(command)) {
    command.flow = true;
    for (const item of command.items) if (isScalar(item)) item.type = Scalar.QUOTE_DOUBLE;
  }
  const env = job.get('env', true);
  if (isMap(env)) {
    for (const pair of env.items) {
      if (isScalar(pair.value)) pair.value.type = Scalar.QUOTE_DOUBLE;
      else if (isMap(pair.value)) pair.value.flow = true;
    }
  }
  const labels = (doc.getIn(['metadata', 'labels'], true) as Node | undefined) ?? null;
  if (isMap(labels)) labels.flow = true;
  const cron = spec.get('cron', true);
  if (isScalar(cron)) cron.type = Scalar.QUOTE_DOUBLE;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true });
}

/** All imported schedules as one stream of documents (`--stdout`). */
export function renderImportedStream(schedules: readonly ImportedSchedule[], options: RenderImportedOptions = {}): string {
  return schedules.map((schedule) => renderImportedManifest(schedule, options)).join('---\n');
}

function setCommentBefore(map: YAMLMap, key: string, comment: string | undefined): void {
  if (!comment) return;
  const pair = map.items.find((item): item is Pair => isPair(item) && isScalar(item.key) && item.key.value === key);
  if (pair && isScalar(pair.key)) pair.key.commentBefore = ` ${comment}`;
}
