CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"schedule_id" bigint,
	"schedule_name" text,
	"version" integer,
	"run_id" bigint,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"git_sha" text,
	"plan_id" text
);
--> statement-breakpoint
CREATE TABLE "run_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "run_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"runner_id" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"exit_code" integer,
	"http_status" integer,
	"error" text,
	"stdout_tail" text,
	"stderr_tail" text,
	CONSTRAINT "run_attempts_status_check" CHECK ("run_attempts"."status" in ('RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'STALLED', 'CANCELLED'))
);
--> statement-breakpoint
CREATE TABLE "runners" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"version" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "schedule_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "schedule_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"schedule_id" bigint NOT NULL,
	"schedule_version" integer NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"trigger_type" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"priority" integer NOT NULL,
	"queue" text NOT NULL,
	"business_date" date,
	"run_after" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"summarized_slots" integer,
	CONSTRAINT "schedule_runs_trigger_check" CHECK ("schedule_runs"."trigger_type" in ('SCHEDULED', 'MANUAL', 'BACKFILL')),
	CONSTRAINT "schedule_runs_status_check" CHECK ("schedule_runs"."status" in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'CANCELLED'))
);
--> statement-breakpoint
CREATE TABLE "schedule_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "schedule_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"schedule_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"definition" jsonb NOT NULL,
	"digest" text NOT NULL,
	"status" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"git_sha" text,
	"plan_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"digest" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"managed" boolean DEFAULT true NOT NULL,
	"paused_at" timestamp with time zone,
	"paused_by" text,
	"paused_reason" text,
	"paused_until" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"last_scheduled_for" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_status_check" CHECK ("schedules"."status" in ('ACTIVE', 'ARCHIVED'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_attempts" ADD CONSTRAINT "run_attempts_run_id_schedule_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."schedule_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_versions" ADD CONSTRAINT "schedule_versions_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_schedule_idx" ON "audit_log" USING btree ("schedule_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_plan_idx" ON "audit_log" USING btree ("plan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "run_attempts_run_attempt_key" ON "run_attempts" USING btree ("run_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_slot_key" ON "schedule_runs" USING btree ("schedule_id","scheduled_for","trigger_type");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_idempotency_key" ON "schedule_runs" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "schedule_runs_claim_idx" ON "schedule_runs" USING btree ("priority","scheduled_for") WHERE "schedule_runs"."status" in ('QUEUED', 'RETRY_PENDING');--> statement-breakpoint
CREATE INDEX "schedule_runs_schedule_status_idx" ON "schedule_runs" USING btree ("schedule_id","status");--> statement-breakpoint
CREATE INDEX "schedule_runs_lease_idx" ON "schedule_runs" USING btree ("lease_expires_at") WHERE "schedule_runs"."status" = 'RUNNING';--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_versions_schedule_version_key" ON "schedule_versions" USING btree ("schedule_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_name_key" ON "schedules" USING btree ("name");--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "schedules" USING btree ("next_run_at") WHERE "schedules"."status" = 'ACTIVE';