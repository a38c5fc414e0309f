CREATE TABLE "active_runs" (
	"run_id" bigint PRIMARY KEY NOT NULL,
	"schedule_id" bigint NOT NULL,
	"status" text NOT NULL,
	"trigger_type" text NOT NULL,
	"priority" integer NOT NULL,
	"queue" text NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"run_after" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "schedule_runs_claim_idx";--> statement-breakpoint
DROP INDEX "schedule_runs_schedule_status_idx";--> statement-breakpoint
DROP INDEX "schedule_runs_lease_idx";--> statement-breakpoint
CREATE INDEX "active_runs_claim_idx" ON "active_runs" USING btree ("priority","scheduled_for","run_id") WHERE "active_runs"."status" in ('QUEUED', 'RETRY_PENDING');--> statement-breakpoint
CREATE INDEX "active_runs_schedule_idx" ON "active_runs" USING btree ("schedule_id","status");--> statement-breakpoint
CREATE INDEX "active_runs_running_idx" ON "active_runs" USING btree ("queue") WHERE "active_runs"."status" = 'RUNNING';--> statement-breakpoint
-- Not expressible in drizzle-kit, appended by hand: the statement triggers that keep active_runs
-- the exact copy of the unfinished runs (see schema.ts), room for HOT updates, and the copy of the
-- runs already there. The triggers come first: CREATE TRIGGER locks schedule_runs against writes
-- until this migration commits, so no run can slip between the copy and the triggers.
CREATE FUNCTION "cronform_active_runs_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO active_runs (run_id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after)
  SELECT id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after FROM inserted_runs
  WHERE status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "cronform_active_runs_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement, set-based: the runs that became active are added, those still active are
  -- updated where their copied fields changed, those that finished are removed. Run with EXECUTE,
  -- so it is planned on each call for the rows this call has: a cached plan keeps the row counts
  -- of its first call, and one made for a single run joined a batch of thousands pairwise.
  EXECUTE $sql$
    WITH moved AS (
      SELECT n.id, n.schedule_id, n.status, n.trigger_type, n.priority, n.queue, n.scheduled_for, n.run_after,
        o.status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING') AS was_active,
        n.status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING') AS is_active
      FROM updated_runs n JOIN previous_runs o ON o.id = n.id
      WHERE (n.status, n.schedule_id, n.trigger_type, n.priority, n.queue, n.scheduled_for, n.run_after)
        IS DISTINCT FROM (o.status, o.schedule_id, o.trigger_type, o.priority, o.queue, o.scheduled_for, o.run_after)
    ),
    removed AS (
      DELETE FROM active_runs a USING moved m WHERE a.run_id = m.id AND m.was_active AND NOT m.is_active
    ),
    changed AS (
      UPDATE active_runs a
      SET schedule_id = m.schedule_id, status = m.status, trigger_type = m.trigger_type, priority = m.priority, queue = m.queue,
          scheduled_for = m.scheduled_for, run_after = m.run_after
      FROM moved m WHERE a.run_id = m.id AND m.was_active AND m.is_active
    )
    INSERT INTO active_runs (run_id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after)
    SELECT id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after FROM moved
    WHERE is_active AND NOT was_active
  $sql$;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "cronform_active_runs_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'DELETE FROM active_runs a USING deleted_runs d WHERE a.run_id = d.id';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "cronform_active_runs_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE active_runs;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_insert" AFTER INSERT ON "schedule_runs"
  REFERENCING NEW TABLE AS inserted_runs FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_insert"();--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_update" AFTER UPDATE ON "schedule_runs"
  REFERENCING OLD TABLE AS previous_runs NEW TABLE AS updated_runs FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_update"();--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_delete" AFTER DELETE ON "schedule_runs"
  REFERENCING OLD TABLE AS deleted_runs FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_delete"();--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_truncate" AFTER TRUNCATE ON "schedule_runs"
  FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_truncate"();--> statement-breakpoint
INSERT INTO "active_runs" (run_id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after)
  SELECT id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after FROM "schedule_runs"
  WHERE status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING');--> statement-breakpoint
-- With no index on what a run's progress changes, its updates are HOT when its page has room.
ALTER TABLE "schedule_runs" SET (fillfactor = 50);
