DROP INDEX CONCURRENTLY IF EXISTS "host_gpus_instance";--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "host_gpus_instance" ON "host_gpus" USING btree ("instance_id") WHERE "host_gpus"."instance_id" is not null;--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "host_ports_instance";--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "host_ports_instance" ON "host_ports" USING btree ("instance_id") WHERE "host_ports"."instance_id" is not null;
