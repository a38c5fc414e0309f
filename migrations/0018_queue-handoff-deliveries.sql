CREATE TABLE "queue_handoff_deliveries" (
	"run_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"url_from_env" text NOT NULL,
	"request" jsonb NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_try_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "queue_handoff_deliveries_run_id_attempt_pk" PRIMARY KEY("run_id","attempt")
);
--> statement-breakpoint
CREATE INDEX "queue_handoff_deliveries_pending_idx" ON "queue_handoff_deliveries" USING btree ("run_id") WHERE "queue_handoff_deliveries"."delivered_at" is null;