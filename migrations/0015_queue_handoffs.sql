CREATE TABLE "queue_handoffs" (
	"run_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"system" text NOT NULL,
	"target" text NOT NULL,
	"job_key" text NOT NULL,
	"external_job_id" text,
	"handed_off_at" timestamp with time zone NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"heartbeat_lease_ms" integer NOT NULL,
	"started_at" timestamp with time zone,
	"last_heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "queue_handoffs_run_id_attempt_pk" PRIMARY KEY("run_id","attempt")
);
