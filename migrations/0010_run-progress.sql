CREATE TABLE "run_items" (
	"run_id" bigint NOT NULL,
	"item_key" text NOT NULL,
	"status" text NOT NULL,
	"attempt" integer NOT NULL,
	"error" text,
	CONSTRAINT "run_items_status_check" CHECK ("run_items"."status" in ('DONE', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "run_progress" (
	"run_id" bigint PRIMARY KEY NOT NULL,
	"attempt" integer NOT NULL,
	"total" bigint,
	"done" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"would_affect" bigint,
	"approved_affected" bigint,
	"complete_report" boolean DEFAULT false NOT NULL,
	"items_truncated" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_runs" DROP CONSTRAINT "schedule_runs_trigger_check";--> statement-breakpoint
ALTER TABLE "schedule_runs" DROP CONSTRAINT "schedule_runs_status_check";--> statement-breakpoint
CREATE UNIQUE INDEX "run_items_run_item_key" ON "run_items" USING btree ("run_id","item_key");--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_trigger_check" CHECK ("schedule_runs"."trigger_type" in ('SCHEDULED', 'MANUAL', 'BACKFILL', 'DRY_RUN'));--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_status_check" CHECK ("schedule_runs"."status" in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'CANCELLED'));