-- Hand-edited: the rollups' primary key carries every column an instance chart reads (INCLUDE),
-- so a week of one instance is an index-only scan of ~70 adjacent pages, not 2,016 heap pages
-- spread over the table (rows are written in time order). Drizzle cannot declare INCLUDE.
CREATE TABLE "instance_sample_rollups" (
	"instance_id" bigint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"host_id" integer NOT NULL,
	"gpu_indexes" smallint[] NOT NULL,
	"gpu_util" real[] NOT NULL,
	"gpu_util_max" smallint NOT NULL,
	"gpu_mem_used_mib" real[] NOT NULL,
	"gpu_mem_total_mib" integer[] NOT NULL,
	"cpu_percent" real NOT NULL,
	"mem_used_bytes" bigint NOT NULL,
	"mem_limit_bytes" bigint NOT NULL,
	"disk_used_bytes" bigint NOT NULL,
	"disk_limit_bytes" bigint NOT NULL,
	"samples" integer NOT NULL,
	CONSTRAINT "instance_sample_rollups_instance_id_bucket_pk" PRIMARY KEY("instance_id","bucket") INCLUDE ("gpu_indexes","gpu_util","gpu_mem_used_mib","gpu_mem_total_mib","cpu_percent","mem_used_bytes","mem_limit_bytes","disk_used_bytes","disk_limit_bytes")
);
--> statement-breakpoint
CREATE TABLE "monitoring_rollup_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "simulated_containers" ADD COLUMN "gpu_load" smallint;--> statement-breakpoint
ALTER TABLE "instance_samples" ADD COLUMN "host_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instance_samples" ADD COLUMN "gpu_indexes" smallint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX "instance_sample_rollups_host_bucket" ON "instance_sample_rollups" USING btree ("host_id","bucket");--> statement-breakpoint
CREATE INDEX "instance_sample_rollups_bucket_brin" ON "instance_sample_rollups" USING brin ("bucket");--> statement-breakpoint
CREATE INDEX "instance_samples_host_at" ON "instance_samples" USING btree ("host_id","at");--> statement-breakpoint
CREATE INDEX "instance_samples_at_brin" ON "instance_samples" USING brin ("at");