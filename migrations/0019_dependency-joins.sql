CREATE TABLE "dependency_joins" (
	"schedule_id" bigint NOT NULL,
	"business_date" date NOT NULL,
	"run_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dependency_joins_schedule_id_business_date_pk" PRIMARY KEY("schedule_id","business_date")
);
--> statement-breakpoint
ALTER TABLE "run_contexts" ADD COLUMN "upstream_run_ids" jsonb;--> statement-breakpoint
CREATE INDEX "dependency_joins_date_idx" ON "dependency_joins" USING btree ("business_date");