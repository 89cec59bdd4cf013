CREATE TABLE "instance_samples" (
	"instance_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"gpu_util" smallint[] NOT NULL,
	"gpu_mem_used_mib" integer[] NOT NULL,
	"gpu_mem_total_mib" integer[] NOT NULL,
	"cpu_percent" real NOT NULL,
	"mem_used_bytes" bigint NOT NULL,
	"mem_limit_bytes" bigint NOT NULL,
	"disk_used_bytes" bigint NOT NULL,
	"disk_limit_bytes" bigint NOT NULL,
	CONSTRAINT "instance_samples_instance_id_at_pk" PRIMARY KEY("instance_id","at")
);
--> statement-breakpoint
ALTER TABLE "user_notices" ADD COLUMN "event" text DEFAULT 'admin_action' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_notices" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "user_notices" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "user_notices_dedupe" ON "user_notices" USING btree ("user_id","dedupe_key");