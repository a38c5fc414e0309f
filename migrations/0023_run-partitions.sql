-- Hand-written (drizzle-kit cannot express partitioning; the snapshot holds the new keys).
-- schedule_runs and run_attempts become partitioned by the run's slot (scheduled_for), one
-- partition per UTC day, so that retention drops a whole day instead of deleting its rows
-- (docs/retention.md). db/run-partitions.ts creates the days ahead; this migration creates:
--   *_default  every slot no day partition covers (a backfill of a day retention dropped, a run
--              created before any runner made its day), read and deleted row by row;
--   *_legacy   the history written before this migration, when there is any: one partition of
--              every slot before the day after the newest, deleted by rows as it ages.
-- Attempts carry their run's slot so that they sit in the same day as their run.
-- Cost on an existing history: one pass over the attempts (the slot copied in) and the indexes
-- that gain the slot rebuilt, under this migration's lock; a fresh database pays nothing.
LOCK TABLE "schedule_runs" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
LOCK TABLE "run_attempts" IN ACCESS EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "run_attempts" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
UPDATE "run_attempts" a SET "scheduled_for" = r."scheduled_for" FROM "schedule_runs" r WHERE r."id" = a."run_id";--> statement-breakpoint
-- An attempt whose run is gone belongs to nothing any command can show.
DELETE FROM "run_attempts" WHERE "scheduled_for" IS NULL;--> statement-breakpoint
ALTER TABLE "run_attempts" ALTER COLUMN "scheduled_for" SET NOT NULL;--> statement-breakpoint
DROP TRIGGER "schedule_runs_active_on_insert" ON "schedule_runs";--> statement-breakpoint
DROP TRIGGER "schedule_runs_active_on_update" ON "schedule_runs";--> statement-breakpoint
DROP TRIGGER "schedule_runs_active_on_delete" ON "schedule_runs";--> statement-breakpoint
DROP TRIGGER "schedule_runs_active_on_truncate" ON "schedule_runs";--> statement-breakpoint
ALTER TABLE "schedule_runs" RENAME TO "schedule_runs_legacy";--> statement-breakpoint
ALTER TABLE "schedule_runs_legacy" DROP CONSTRAINT "schedule_runs_pkey";--> statement-breakpoint
ALTER INDEX "schedule_runs_slot_key" RENAME TO "schedule_runs_legacy_slot_key";--> statement-breakpoint
DROP INDEX "schedule_runs_idempotency_key";--> statement-breakpoint
ALTER TABLE "run_attempts" RENAME TO "run_attempts_legacy";--> statement-breakpoint
ALTER TABLE "run_attempts_legacy" DROP CONSTRAINT "run_attempts_pkey";--> statement-breakpoint
CREATE TABLE "run_attempts" (
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
	"scheduled_for" timestamp with time zone NOT NULL,
	CONSTRAINT "run_attempts_pkey" PRIMARY KEY ("run_id", "attempt", "scheduled_for"),
	CONSTRAINT "run_attempts_status_check" CHECK ("run_attempts"."status" in ('CLAIMED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'STALLED', 'CANCELLED'))
) PARTITION BY RANGE ("scheduled_for");--> statement-breakpoint
-- The identity moves to the new table and goes on where the old one stopped: ids stay unique
-- across every partition (each partition's key holds the slot, so only the sequence keeps `id`
-- unique on its own, as it always did).
DO $$
DECLARE
  v_next bigint;
  v_seq record;
BEGIN
  SELECT last_value, is_called INTO v_seq FROM "schedule_runs_id_seq";
  v_next := CASE WHEN v_seq.is_called THEN v_seq.last_value + 1 ELSE v_seq.last_value END;
  SELECT greatest(v_next, coalesce(max("id"), 0) + 1) INTO v_next FROM "schedule_runs_legacy";
  ALTER TABLE "schedule_runs_legacy" ALTER COLUMN "id" DROP IDENTITY;
  CREATE TABLE "schedule_runs" (
    "id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "schedule_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1) NOT NULL,
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
    CONSTRAINT "schedule_runs_pkey" PRIMARY KEY ("id", "scheduled_for"),
    CONSTRAINT "schedule_runs_trigger_check" CHECK ("schedule_runs"."trigger_type" in ('SCHEDULED', 'MANUAL', 'BACKFILL', 'DRY_RUN', 'DEPENDENCY')),
    CONSTRAINT "schedule_runs_status_check" CHECK ("schedule_runs"."status" in ('PENDING', 'QUEUED', 'RUNNING', 'RETRY_PENDING', 'SUCCESS', 'PARTIAL_SUCCESS', 'FAILED', 'SKIPPED', 'MISSED', 'MANUAL_REQUIRED', 'CANCELLED'))
  ) PARTITION BY RANGE ("scheduled_for");
  PERFORM setval('"schedule_runs_id_seq"', v_next, false);
END
$$;--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_slot_key" ON "schedule_runs" USING btree ("schedule_id","scheduled_for","trigger_type");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_idempotency_key" ON "schedule_runs" USING btree ("idempotency_key","scheduled_for");--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Like the tables they replace (0004, 0006): room on each page for HOT updates.
CREATE TABLE "schedule_runs_default" PARTITION OF "schedule_runs" DEFAULT WITH (fillfactor = 50);--> statement-breakpoint
CREATE TABLE "run_attempts_default" PARTITION OF "run_attempts" DEFAULT WITH (fillfactor = 50);--> statement-breakpoint
DO $$
DECLARE
  v_until timestamptz;
BEGIN
  IF EXISTS (SELECT 1 FROM "schedule_runs_legacy") OR EXISTS (SELECT 1 FROM "run_attempts_legacy") THEN
    -- The UTC midnight after the newest slot (at least that of now): no day partition is made
    -- before it, so the legacy rows never have to move.
    SELECT (date_trunc('day', greatest(max(s), now()) AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC' INTO v_until
      FROM (SELECT max("scheduled_for") AS s FROM "schedule_runs_legacy" UNION ALL SELECT max("scheduled_for") FROM "run_attempts_legacy") m;
    EXECUTE format('ALTER TABLE "schedule_runs" ATTACH PARTITION "schedule_runs_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', v_until);
    EXECUTE format('ALTER TABLE "run_attempts" ATTACH PARTITION "run_attempts_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', v_until);
    -- Attaching built the partition's share of the keys that gained the slot; the old slot key
    -- already was one and became the parent's.
  ELSE
    DROP TABLE "schedule_runs_legacy";
    DROP TABLE "run_attempts_legacy";
  END IF;
END
$$;--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_insert" AFTER INSERT ON "schedule_runs"
  REFERENCING NEW TABLE AS inserted_runs FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_insert"();--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_update" AFTER UPDATE ON "schedule_runs"
  REFERENCING OLD TABLE AS previous_runs NEW TABLE AS updated_runs FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_update"();--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_delete" AFTER DELETE ON "schedule_runs"
  REFERENCING OLD TABLE AS deleted_runs FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_delete"();--> statement-breakpoint
CREATE TRIGGER "schedule_runs_active_on_truncate" AFTER TRUNCATE ON "schedule_runs"
  FOR EACH STATEMENT EXECUTE FUNCTION "cronform_active_runs_on_truncate"();
