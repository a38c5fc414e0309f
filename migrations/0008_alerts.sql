CREATE TABLE "alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rule" text NOT NULL,
	"condition_key" text NOT NULL,
	"schedule_id" bigint,
	"schedule_name" text,
	"criticality" text,
	"state" text NOT NULL,
	"summary" text NOT NULL,
	"details" jsonb NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"opened_by" text NOT NULL,
	"resolved_at" timestamp with time zone,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"delivery_attempts" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "alerts_state_check" CHECK ("alerts"."state" in ('OPEN', 'RESOLVED'))
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_condition_key" ON "alerts" USING btree ("rule","condition_key");--> statement-breakpoint
CREATE INDEX "alerts_open_idx" ON "alerts" USING btree ("opened_at") WHERE "alerts"."state" = 'OPEN';--> statement-breakpoint
CREATE INDEX "alerts_opened_at_idx" ON "alerts" USING btree ("opened_at");