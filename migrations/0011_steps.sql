CREATE TABLE "run_steps" (
	"run_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"step_index" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"tries" integer DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"exit_code" integer,
	"http_status" integer,
	"error" text,
	"stdout_tail" text,
	"stderr_tail" text,
	"result" jsonb,
	CONSTRAINT "run_steps_status_check" CHECK ("run_steps"."status" in ('RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'CANCELLED', 'RESET'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "run_steps_run_attempt_step_key" ON "run_steps" USING btree ("run_id","attempt","step_index");