DROP INDEX "active_runs_claim_idx";--> statement-breakpoint
CREATE INDEX "active_runs_retry_idx" ON "active_runs" USING btree ("run_after") WHERE "active_runs"."status" = 'RETRY_PENDING';--> statement-breakpoint
CREATE INDEX "active_runs_run_after_idx" ON "active_runs" USING btree ("run_after") WHERE "active_runs"."status" in ('QUEUED', 'RETRY_PENDING') and "active_runs"."run_after" > '-infinity';--> statement-breakpoint
CREATE INDEX "active_runs_claim_idx" ON "active_runs" USING btree ("priority","scheduled_for","run_id") WHERE "active_runs"."status" = 'QUEUED';