CREATE TABLE "run_daily_rollups" (
	"schedule_id" bigint NOT NULL,
	"day" date NOT NULL,
	"trigger_type" text NOT NULL,
	"status" text NOT NULL,
	"runs" integer NOT NULL,
	"slots" integer NOT NULL,
	"duration_ms_sum" bigint NOT NULL,
	"duration_ms_max" bigint,
	"start_delay_buckets" integer[] NOT NULL,
	"last_success_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "run_daily_rollups" ADD CONSTRAINT "run_daily_rollups_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "run_daily_rollups_key" ON "run_daily_rollups" USING btree ("schedule_id","day","trigger_type","status");