// Example job for schedules/cleanup.yaml: deletes expired exports (here it only reports what it would do).
import { describeSecret, readOptions, reportRun } from './run-context.js';

const options = readOptions();
reportRun('cleanup', {
  olderThan: options['older-than'] ?? '30d',
  bucket: process.env.STORAGE_BUCKET ?? null,
  storageAccessKey: describeSecret('STORAGE_ACCESS_KEY'),
  dryRun: true,
});
