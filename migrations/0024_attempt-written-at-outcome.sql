-- An attempt gets its run_attempts row once, when it ends, instead of an insert at the claim and
-- an update at the outcome (issue 20, a leaner write path). While the run is RUNNING its row
-- records the attempt: `attempts`, `lease_owner`, and these two columns, written by the claim's
-- update of the run row (HOT: neither is indexed). attempt_status is CLAIMED (waiting in the
-- runner's local queue: the reconciler hands such a run back unused) or RUNNING (its job started;
-- the start mark moves it). db/open-attempts.ts reads them as the attempt. Adding nullable columns
-- is instant; runs claimed before this migration keep their rows.
ALTER TABLE "schedule_runs" ADD COLUMN "attempt_status" text;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD COLUMN "attempt_started_at" timestamp with time zone;
