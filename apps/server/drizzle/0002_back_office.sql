CREATE TABLE "user_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"instance_id" bigint,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vastai_offers" (
	"offer_id" bigint PRIMARY KEY NOT NULL,
	"gpu_name" text NOT NULL,
	"num_gpus" integer NOT NULL,
	"gpu_memory_gb" integer NOT NULL,
	"cpu_name" text DEFAULT '' NOT NULL,
	"cpu_cores" integer DEFAULT 0 NOT NULL,
	"memory_gb" integer DEFAULT 0 NOT NULL,
	"disk_gb" integer DEFAULT 0 NOT NULL,
	"usd_micros_per_hour" bigint NOT NULL,
	"geolocation" text DEFAULT '' NOT NULL,
	"cuda_version" text DEFAULT '' NOT NULL,
	"driver_version" text DEFAULT '' NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vastai_rentals" (
	"instance_id" bigint PRIMARY KEY NOT NULL,
	"offer_id" bigint NOT NULL,
	"usd_micros_per_hour" bigint NOT NULL,
	"disk_gb" integer NOT NULL,
	"vast_instance_id" bigint,
	"ssh_host" text,
	"ssh_port" integer,
	"vast_status" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ssh_host" text;--> statement-breakpoint
ALTER TABLE "user_notices" ADD CONSTRAINT "user_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vastai_rentals" ADD CONSTRAINT "vastai_rentals_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_notices_user" ON "user_notices" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_time" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target","created_at");