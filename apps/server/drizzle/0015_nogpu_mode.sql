DROP INDEX "billing_records_meter_hour";--> statement-breakpoint
ALTER TABLE "regions" ADD COLUMN "nogpu_hourly_price" bigint DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "hourly_rate" bigint;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "nogpu_rate" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_meter_hour" ON "billing_records" USING btree ("instance_id","meter_hour","kind");