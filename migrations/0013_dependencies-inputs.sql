CREATE TABLE "run_contexts" (
	"run_id" bigint PRIMARY KEY NOT NULL,
	"upstream_run_id" bigint,
	"inputs" jsonb
);
--> statement-breakpoint
ALTER TABLE "schedule_runs" DROP CONSTRAINT "schedule_runs_trigger_check";--> statement-breakpoint
CREATE INDEX "run_contexts_upstream_idx" ON "run_contexts" USING btree ("upstream_run_id") WHERE "run_contexts"."upstream_run_id" is not null;--> statement-breakpoint
CREATE INDEX "schedules_after_idx" ON "schedules" USING gin (("definition" -> 'after') jsonb_path_ops);--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_trigger_check" CHECK ("schedule_runs"."trigger_type" in ('SCHEDULED', 'MANUAL', 'BACKFILL', 'DRY_RUN', 'DEPENDENCY'));