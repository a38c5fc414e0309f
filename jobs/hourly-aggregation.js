// Example job for schedules/hourly-aggregation.yaml: aggregates the hour that starts at the slot.
import { describeSecret, readRunContext, reportRun } from './run-context.js';

// The slot, not the wall clock: a catch-up run at 14:05 for the 09:00 slot aggregates 09:00–10:00.
const hour = readRunContext().scheduledFor;
reportRun('hourly-aggregation', { hour, eventsDatabase: describeSecret('EVENTS_DATABASE_URL') });
