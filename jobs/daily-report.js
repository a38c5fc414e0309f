// Example job for schedules/daily-report.yaml: builds the daily operations report.
import { describeSecret, readOptions, readRunContext, reportRun } from './run-context.js';

const options = readOptions();
// --date comes from {{businessDate}}; the variable is the same value, kept for direct runs.
const date = options.date ?? readRunContext().businessDate;
reportRun('daily-report', { date, mode: process.env.MODE ?? 'full', notionToken: describeSecret('NOTION_TOKEN') });
