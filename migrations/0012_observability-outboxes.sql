CREATE TABLE "alert_deliveries" (
	"alert_id" bigint NOT NULL,
	"event" text NOT NULL,
	"target" text NOT NULL,
	"state" text NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone NOT NULL,
	"rounds" integer DEFAULT 1 NOT NULL,
	"last_error" text,
	CONSTRAINT "alert_deliveries_event_check" CHECK ("alert_deliveries"."event" in ('firing', 'resolved')),
	CONSTRAINT "alert_deliveries_state_check" CHECK ("alert_deliveries"."state" in ('PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'))
);
--> statement-breakpoint
CREATE TABLE "run_final_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "run_final_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint NOT NULL,
	"schedule_id" bigint NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"trigger_type" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_deliveries_key" ON "alert_deliveries" USING btree ("alert_id","event","target");--> statement-breakpoint
CREATE INDEX "alert_deliveries_pending_idx" ON "alert_deliveries" USING btree ("claimed_at") WHERE "alert_deliveries"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "run_final_events_recorded_at_idx" ON "run_final_events" USING btree ("recorded_at");