-- Hand-written (drizzle-kit cannot express functions): the contract through which a queue's
-- worker reports on a run cronform handed to it (docs/queue-handoff.md). Three functions in a
-- `cronform` schema, each guarded like every other transition: it acts only while the run is
-- RUNNING, handed off (lease owner `queue:<system>`), on the attempt given (or the current one),
-- and not yet reported finished; otherwise it changes nothing and says so (false / null).
--
-- SECURITY DEFINER with a fixed search_path (the schema cronform's tables are migrated into, then
-- pg_catalog, pg_temp last so no temporary table can stand in for a cronform table): the worker's
-- role needs USAGE on schema cronform and EXECUTE on these functions, and no privilege on any
-- table. EXECUTE is revoked from PUBLIC; grant it to the worker's role (docs/queue-handoff.md).
--
-- Time is the database's now() here: the caller is another program, and the run's lease, which
-- the reconciler compares with its own clock, is extended from it like a runner's heartbeat.
CREATE SCHEMA IF NOT EXISTS cronform;--> statement-breakpoint
DO $migration$
BEGIN
  EXECUTE format($create$
    CREATE OR REPLACE FUNCTION cronform.report_handed_off_run(p_run_id bigint, p_attempt integer, p_finished boolean)
    RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = %I, pg_catalog, pg_temp AS $body$
    DECLARE
      v_run schedule_runs%%ROWTYPE;
      v_handoff queue_handoffs%%ROWTYPE;
    BEGIN
      SELECT * INTO v_run FROM schedule_runs WHERE id = p_run_id FOR UPDATE;
      IF NOT FOUND OR v_run.status <> 'RUNNING' OR v_run.lease_owner IS NULL OR v_run.lease_owner NOT LIKE 'queue:%%'
         OR (p_attempt IS NOT NULL AND v_run.attempts <> p_attempt) THEN
        RETURN false;
      END IF;
      SELECT * INTO v_handoff FROM queue_handoffs WHERE run_id = p_run_id AND attempt = v_run.attempts AND finished_at IS NULL;
      IF NOT FOUND THEN
        RETURN false;
      END IF;
      IF NOT p_finished THEN
        -- A report is a heartbeat: the lease moves as for a local attempt, never past the timeout.
        UPDATE queue_handoffs SET last_heartbeat_at = now(), started_at = coalesce(started_at, now())
        WHERE run_id = p_run_id AND attempt = v_run.attempts;
        UPDATE schedule_runs SET lease_expires_at = least(now() + v_handoff.heartbeat_lease_ms * interval '1 millisecond', v_handoff.deadline_at)
        WHERE id = p_run_id;
      END IF;
      RETURN true;
    END
    $body$
  $create$, current_schema());

  EXECUTE format($create$
    CREATE OR REPLACE FUNCTION cronform.run_started(run_id bigint, attempt integer DEFAULT NULL)
    RETURNS boolean LANGUAGE sql SECURITY DEFINER SET search_path = %I, pg_catalog, pg_temp AS $body$
      SELECT cronform.report_handed_off_run(run_id, attempt, false)
    $body$
  $create$, current_schema());

  EXECUTE format($create$
    CREATE OR REPLACE FUNCTION cronform.run_heartbeat(run_id bigint, attempt integer DEFAULT NULL)
    RETURNS boolean LANGUAGE sql SECURITY DEFINER SET search_path = %I, pg_catalog, pg_temp AS $body$
      SELECT cronform.report_handed_off_run(run_id, attempt, false)
    $body$
  $create$, current_schema());

  -- The outcome: SUCCESS, or FAILED and then another attempt per the run's retry policy (the same
  -- rule as runner/policy/backoff.ts, checked against it by test/db/queue-report-functions.test.ts)
  -- while attempts are left. Returns the run's new status, or NULL when the report was ignored.
  EXECUTE format($create$
    CREATE OR REPLACE FUNCTION cronform.run_finished(run_id bigint, status text, error text DEFAULT NULL, attempt integer DEFAULT NULL)
    RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = %I, pg_catalog, pg_temp AS $body$
    DECLARE
      v_run schedule_runs%%ROWTYPE;
      v_retry jsonb;
      v_delay_ms numeric;
      v_next text;
      v_error text := left(run_finished.error, 16384);
      v_promoted integer := 0;
    BEGIN
      IF run_finished.status IS NULL OR run_finished.status NOT IN ('SUCCESS', 'FAILED') THEN
        RAISE EXCEPTION 'cronform.run_finished: status must be SUCCESS or FAILED (got %%)', coalesce(run_finished.status, 'NULL') USING ERRCODE = '22023';
      END IF;
      IF NOT cronform.report_handed_off_run(run_finished.run_id, run_finished.attempt, true) THEN
        RETURN NULL;
      END IF;
      SELECT * INTO v_run FROM schedule_runs r WHERE r.id = run_finished.run_id;
      IF run_finished.status = 'SUCCESS' THEN
        v_next := 'SUCCESS';
      ELSIF v_run.attempts >= v_run.max_attempts THEN
        v_next := 'FAILED';
      ELSE
        v_next := 'RETRY_PENDING';
        SELECT v.definition -> 'retry' INTO v_retry FROM schedule_versions v WHERE v.schedule_id = v_run.schedule_id AND v.version = v_run.schedule_version;
        IF v_retry IS NULL THEN
          v_next := 'FAILED';
        ELSIF v_retry ->> 'backoff' = 'fixed' THEN
          v_delay_ms := (v_retry ->> 'initialDelayMs')::numeric;
        ELSE
          v_delay_ms := least((v_retry ->> 'initialDelayMs')::numeric * power(2::numeric, least(greatest(v_run.attempts - 1, 0), 1000)), (v_retry ->> 'maxDelayMs')::numeric);
        END IF;
      END IF;
      UPDATE schedule_runs r
      SET status = v_next, lease_owner = NULL, lease_expires_at = NULL,
          run_after = CASE WHEN v_next = 'RETRY_PENDING' THEN now() + v_delay_ms * interval '1 millisecond' ELSE r.run_after END,
          finished_at = CASE WHEN v_next = 'RETRY_PENDING' THEN NULL ELSE now() END
      WHERE r.id = v_run.id;
      UPDATE run_attempts a
      SET status = CASE WHEN run_finished.status = 'SUCCESS' THEN 'SUCCEEDED' ELSE 'FAILED' END, finished_at = now(), error = v_error
      WHERE a.run_id = v_run.id AND a.attempt = v_run.attempts AND a.status IN ('CLAIMED', 'RUNNING');
      UPDATE queue_handoffs h SET finished_at = now() WHERE h.run_id = v_run.id AND h.attempt = v_run.attempts;
      IF v_next <> 'RETRY_PENDING' THEN
        -- A final status written outside a runner: counted in cronform_runs_total through the
        -- outbox runners drain (run_final_events, as for cancel and pause).
        INSERT INTO run_final_events (run_id, schedule_id, status, status_reason, trigger_type, recorded_at)
        VALUES (v_run.id, v_run.schedule_id, v_next, NULL, v_run.trigger_type, now());
      END IF;
      IF v_next <> 'RETRY_PENDING' THEN
        -- QUEUE_NEW: the schedule's oldest PENDING run is next, as when a runner completes a run.
        UPDATE schedule_runs r SET status = 'QUEUED'
        WHERE r.status = 'PENDING' AND r.id IN (
          SELECT p.run_id FROM active_runs p
          WHERE p.schedule_id = v_run.schedule_id AND p.status = 'PENDING'
            AND NOT EXISTS (SELECT 1 FROM active_runs a WHERE a.schedule_id = v_run.schedule_id AND a.status IN ('QUEUED', 'RUNNING', 'RETRY_PENDING'))
          ORDER BY p.scheduled_for LIMIT 1
        );
        GET DIAGNOSTICS v_promoted = ROW_COUNT;
      END IF;
      IF v_next = 'RETRY_PENDING' OR v_promoted > 0 THEN
        PERFORM pg_notify('cronform_runs', '');
      END IF;
      RETURN v_next;
    END
    $body$
  $create$, current_schema());
END
$migration$;--> statement-breakpoint
REVOKE ALL ON FUNCTION cronform.report_handed_off_run(bigint, integer, boolean) FROM PUBLIC;--> statement-breakpoint
REVOKE ALL ON FUNCTION cronform.run_started(bigint, integer) FROM PUBLIC;--> statement-breakpoint
REVOKE ALL ON FUNCTION cronform.run_heartbeat(bigint, integer) FROM PUBLIC;--> statement-breakpoint
REVOKE ALL ON FUNCTION cronform.run_finished(bigint, text, text, integer) FROM PUBLIC;
