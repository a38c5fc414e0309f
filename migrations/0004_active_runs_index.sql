DROP INDEX "schedule_runs_schedule_status_idx";--> statement-breakpoint
CREATE INDEX "schedule_runs_schedule_status_idx" ON "schedule_runs" USING btree ("schedule_id","status") WHERE "schedule_runs"."status" in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING');--> statement-breakpoint
-- Not expressible in drizzle-kit: room in each page, so that an attempt's updates (started, outcome) are HOT
-- (no indexed column changes) and write no index entries. New pages only; existing rows keep theirs.
ALTER TABLE "run_attempts" SET (fillfactor = 50);