// Example job for schedules/weekly-report.yaml: summarises the week that ended on the business date.
import { describeSecret, readOptions, readRunContext, reportRun } from './run-context.js';

const options = readOptions();
reportRun('weekly-report', {
  weekEnding: options['week-ending'] ?? readRunContext().businessDate,
  format: process.env.REPORT_FORMAT ?? 'pdf',
  warehousePassword: describeSecret('WAREHOUSE_PASSWORD'),
});
