-- Hand-written, first: no run may move while the triggers change and the copy is filled, and
-- the lock must come before the index below, which locks active_runs: a writer holds schedule_runs
-- and waits for active_runs in its trigger, so taking them the other way round could deadlock.
LOCK TABLE "schedule_runs" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE INDEX "active_runs_manual_idx" ON "active_runs" USING btree ("scheduled_for","run_id") WHERE "active_runs"."status" = 'MANUAL_REQUIRED';--> statement-breakpoint
-- Not expressible in drizzle-kit, appended by hand: active_runs also holds the runs waiting for a
-- human (MANUAL_REQUIRED), so that the dashboard lists them without reading schedule_runs by status
-- (schema.ts). The triggers of 0006 are replaced with the same statements over the wider set, then
-- the runs already waiting are copied; the lock above keeps any run from moving in between.
CREATE OR REPLACE FUNCTION "cronform_active_runs_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO active_runs (run_id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after)
  SELECT id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after FROM inserted_runs
  WHERE status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'MANUAL_REQUIRED');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "cronform_active_runs_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement, set-based: the runs that entered the copied set are added, those still in it
  -- are updated where their copied fields changed, those that left it are removed. Run with
  -- EXECUTE, so it is planned on each call for the rows this call has (see 0006).
  EXECUTE $sql$
    WITH moved AS (
      SELECT n.id, n.schedule_id, n.status, n.trigger_type, n.priority, n.queue, n.scheduled_for, n.run_after,
        o.status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'MANUAL_REQUIRED') AS was_copied,
        n.status IN ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'MANUAL_REQUIRED') AS is_copied
      FROM updated_runs n JOIN previous_runs o ON o.id = n.id
      WHERE (n.status, n.schedule_id, n.trigger_type, n.priority, n.queue, n.scheduled_for, n.run_after)
        IS DISTINCT FROM (o.status, o.schedule_id, o.trigger_type, o.priority, o.queue, o.scheduled_for, o.run_after)
    ),
    removed AS (
      DELETE FROM active_runs a USING moved m WHERE a.run_id = m.id AND m.was_copied AND NOT m.is_copied
    ),
    changed AS (
      UPDATE active_runs a
      SET schedule_id = m.schedule_id, status = m.status, trigger_type = m.trigger_type, priority = m.priority, queue = m.queue,
          scheduled_for = m.scheduled_for, run_after = m.run_after
      FROM moved m WHERE a.run_id = m.id AND m.was_copied AND m.is_copied
    )
    INSERT INTO active_runs (run_id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after)
    SELECT id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after FROM moved
    WHERE is_copied AND NOT was_copied
  $sql$;
  RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO "active_runs" (run_id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after)
  SELECT id, schedule_id, status, trigger_type, priority, queue, scheduled_for, run_after FROM "schedule_runs"
  WHERE status = 'MANUAL_REQUIRED';
