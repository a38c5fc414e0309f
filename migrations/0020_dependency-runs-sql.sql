-- Hand-written (drizzle-kit cannot express functions): the one implementation of the spec.after
-- rule (docs/workflows.md, Dependencies), called in the transaction that writes an upstream run's
-- SUCCESS, whoever writes it: a runner's outcome writer (runner/dependency-runs.ts) and
-- cronform.run_finished (a queue worker's report, redefined below to call it). One rule in one
-- place, so the two paths cannot drift.
--
-- create_dependency_runs(upstream run ids, now): for every SUCCESS run among the ids (not a dry run) and every
-- active, enabled schedule whose spec.after names the run's schedule, in dependent id order:
--   * one upstream: a DEPENDENCY run on the upstream's slot and business date (one per upstream
--     run; the unique (schedule, scheduled_for, trigger_type) key makes a replay insert nothing);
--   * several upstreams (a join): a DEPENDENCY run once every upstream has a SUCCESS run with the
--     same business date, at most one per (dependent, business date) (dependency_joins' primary
--     key), on the latest of those upstream slots. Two upstreams succeeding at once in two
--     transactions must create one run, never zero: under READ COMMITTED neither would see the
--     other's uncommitted SUCCESS, so the check is serialized per dependent by locking its
--     schedules row (FOR NO KEY UPDATE: it does not block inserting its runs, whose foreign key
--     takes FOR KEY SHARE; it does wait for the scheduler, which holds the row FOR UPDATE while it
--     decides the dependent's deadline slots). The second transaction waits for the first to end,
--     and its next statement's snapshot sees the first's SUCCESS.
-- The new run is decided like an on-time slot: paused -> SKIPPED/PAUSED, approval required ->
-- MANUAL_REQUIRED, then the dependent's overlap against its active runs. It records every upstream
-- run in run_contexts (upstream_run_id: the run that completed the rule; upstream_run_ids: the
-- map schedule -> run id) and notifies the workers when a run became QUEUED.
--
-- SECURITY INVOKER (the default): the caller needs the privileges on cronform's tables a runner
-- has; run_finished, SECURITY DEFINER, calls it with its owner's. Nothing in it is worth calling
-- for anyone else, so EXECUTE stays with PUBLIC like any function a runner calls.
DO $migration$
BEGIN
  EXECUTE format($create$
    CREATE OR REPLACE FUNCTION cronform.create_dependency_runs(p_upstream_run_ids bigint[], p_now timestamptz)
    RETURNS TABLE (created_run_id bigint, created_status text)
    LANGUAGE plpgsql SET search_path = %I, pg_catalog, pg_temp AS $body$
    DECLARE
      v_dep record;
      v_upstream record;
      v_other record;
      v_upstream_count integer;
      v_date date;
      v_slot timestamptz;
      v_ids jsonb;
      v_complete boolean;
      v_status text;
      v_reason text;
      v_id bigint;
      v_queued integer := 0;
    BEGIN
      FOR v_dep IN
        SELECT u.id AS upstream_run_id, u.scheduled_for AS upstream_slot, u.business_date AS upstream_date, us.name AS upstream_name,
               d.id, d.name, d.version, d.definition, d.paused_at, d.paused_until
        FROM schedule_runs u
        JOIN schedules us ON us.id = u.schedule_id
        JOIN schedules d ON (d.definition -> 'after') @> jsonb_build_array(jsonb_build_object('schedule', us.name))
        -- A dry run changed nothing (docs/workflows.md, Dry runs): there is nothing to process after it.
        WHERE u.id = ANY(p_upstream_run_ids) AND u.status = 'SUCCESS' AND u.trigger_type <> 'DRY_RUN' AND d.status = 'ACTIVE'
          AND coalesce((d.definition ->> 'enabled')::boolean, true)
        -- Dependent id order: two transactions lock dependents in the same order, never crosswise.
        ORDER BY d.id, u.id
      LOOP
        v_upstream_count := (SELECT count(DISTINCT e ->> 'schedule') FROM jsonb_array_elements(v_dep.definition -> 'after') e);
        IF v_upstream_count = 1 THEN
          v_slot := v_dep.upstream_slot;
          v_date := v_dep.upstream_date;
          v_ids := jsonb_build_object(v_dep.upstream_name, v_dep.upstream_run_id);
        ELSE
          -- A join matches business dates: a run without one joins nothing.
          CONTINUE WHEN v_dep.upstream_date IS NULL;
          PERFORM 1 FROM schedules s WHERE s.id = v_dep.id FOR NO KEY UPDATE;
          CONTINUE WHEN EXISTS (SELECT 1 FROM dependency_joins j WHERE j.schedule_id = v_dep.id AND j.business_date = v_dep.upstream_date);
          v_date := v_dep.upstream_date;
          v_slot := v_dep.upstream_slot;
          v_ids := jsonb_build_object(v_dep.upstream_name, v_dep.upstream_run_id);
          v_complete := true;
          FOR v_upstream IN
            SELECT DISTINCT e ->> 'schedule' AS name FROM jsonb_array_elements(v_dep.definition -> 'after') e WHERE e ->> 'schedule' <> v_dep.upstream_name
          LOOP
            -- The other upstream's latest SUCCESS for the date (a reprocessed date has several).
            SELECT r.id, r.scheduled_for INTO v_other
            FROM schedule_runs r JOIN schedules s ON s.id = r.schedule_id
            WHERE s.name = v_upstream.name AND r.business_date = v_date AND r.status = 'SUCCESS' AND r.trigger_type <> 'DRY_RUN'
            ORDER BY r.finished_at DESC NULLS LAST, r.id DESC LIMIT 1;
            IF NOT FOUND THEN
              v_complete := false;
              EXIT;
            END IF;
            v_ids := v_ids || jsonb_build_object(v_upstream.name, v_other.id);
            v_slot := greatest(v_slot, v_other.scheduled_for);
          END LOOP;
          CONTINUE WHEN NOT v_complete;
        END IF;

        IF v_dep.paused_at IS NOT NULL AND (v_dep.paused_until IS NULL OR v_dep.paused_until > p_now) THEN
          v_status := 'SKIPPED';
          v_reason := 'PAUSED';
        ELSIF v_dep.definition ->> 'approval' = 'required' THEN
          v_status := 'MANUAL_REQUIRED';
          v_reason := NULL;
        ELSE
          v_status := 'QUEUED';
          v_reason := NULL;
          IF coalesce(v_dep.definition ->> 'overlap', 'SKIP_NEW') <> 'ALLOW'
             AND EXISTS (SELECT 1 FROM active_runs a WHERE a.schedule_id = v_dep.id AND a.status IN ('QUEUED', 'RUNNING', 'RETRY_PENDING')) THEN
            IF v_dep.definition ->> 'overlap' = 'QUEUE_NEW' THEN
              v_status := 'PENDING';
            ELSE
              v_status := 'SKIPPED';
              v_reason := 'OVERLAP';
            END IF;
          END IF;
        END IF;

        v_id := NULL;
        -- It starts now, without jitter (the upstream's slot had its own); the idempotency key is
        -- runner/run-types.ts idempotencyKeyFor's.
        INSERT INTO schedule_runs AS r (schedule_id, schedule_version, scheduled_for, trigger_type, idempotency_key, status, status_reason,
          priority, queue, business_date, run_after, max_attempts, finished_at, created_at)
        VALUES (v_dep.id, v_dep.version, v_slot, 'DEPENDENCY',
          v_dep.name || ':' || to_char(v_slot AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ':DEPENDENCY',
          v_status, v_reason,
          CASE v_dep.definition ->> 'priority' WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'LOW' THEN 3 ELSE 2 END,
          coalesce(v_dep.definition ->> 'queue', 'default'), v_date, p_now,
          coalesce((v_dep.definition -> 'retry' ->> 'maxAttempts')::integer, 1),
          CASE WHEN v_status = 'SKIPPED' THEN p_now END, p_now)
        ON CONFLICT DO NOTHING
        RETURNING r.id INTO v_id;
        CONTINUE WHEN v_id IS NULL;
        INSERT INTO run_contexts (run_id, upstream_run_id, upstream_run_ids) VALUES (v_id, v_dep.upstream_run_id, v_ids)
        ON CONFLICT (run_id) DO NOTHING;
        IF v_upstream_count > 1 THEN
          -- No ON CONFLICT: under the lock the date was checked free; a conflict here is a bug and
          -- rolls the whole outcome back rather than leave two runs for one date.
          INSERT INTO dependency_joins (schedule_id, business_date, run_id, created_at) VALUES (v_dep.id, v_date, v_id, p_now);
        END IF;
        IF v_status = 'QUEUED' THEN
          v_queued := v_queued + 1;
        END IF;
        created_run_id := v_id;
        created_status := v_status;
        RETURN NEXT;
      END LOOP;
      IF v_queued > 0 THEN
        PERFORM pg_notify('cronform_runs', '');
      END IF;
    END
    $body$
  $create$, current_schema());

  -- run_finished as in migration 0016, plus the dependents of a SUCCESS.
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
      v_dependents_queued integer := 0;
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
      IF v_next = 'SUCCESS' THEN
        -- spec.after: the dependents' runs, in this transaction, by the same rule as a runner's SUCCESS.
        SELECT count(*) FILTER (WHERE d.created_status = 'QUEUED') INTO v_dependents_queued
        FROM cronform.create_dependency_runs(ARRAY[v_run.id], now()) d;
      END IF;
      IF v_next = 'RETRY_PENDING' OR v_promoted > 0 OR v_dependents_queued > 0 THEN
        PERFORM pg_notify('cronform_runs', '');
      END IF;
      RETURN v_next;
    END
    $body$
  $create$, current_schema());
END
$migration$;--> statement-breakpoint
REVOKE ALL ON FUNCTION cronform.run_finished(bigint, text, text, integer) FROM PUBLIC;
