CREATE TABLE "auth_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"audience" text NOT NULL,
	"subject_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rate_limit_hits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_hits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "idempotency_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"response_status" integer,
	"response_body" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_requests_user_scope_key" UNIQUE("user_id","scope","key")
);
--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "meter_hour" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "idempotency_requests" ADD CONSTRAINT "idempotency_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_sessions_subject" ON "auth_sessions" USING btree ("audience","subject_id");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_window" ON "rate_limit_hits" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "idempotency_requests_created_at" ON "idempotency_requests" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_meter_hour" ON "billing_records" USING btree ("instance_id","meter_hour");--> statement-breakpoint
CREATE UNIQUE INDEX "instances_user_idempotency_key" ON "instances" USING btree ("user_id","idempotency_key");