-- run_attempts is keyed by (run_id, attempt), the key every statement uses. The surrogate id was a
-- second unique index written on every claim and read by nothing; the foreign key to
-- schedule_runs goes too (retention deletes attempts with their runs, and a key on
-- schedule_runs(id) alone stands in the way of partitioning it). The existing unique index becomes
-- the primary key as it is: no index is rebuilt, however long the history.
ALTER TABLE "run_attempts" DROP CONSTRAINT "run_attempts_run_id_schedule_runs_id_fk";--> statement-breakpoint
ALTER TABLE "run_attempts" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "run_attempts" ADD CONSTRAINT "run_attempts_pkey" PRIMARY KEY USING INDEX "run_attempts_run_attempt_key";
