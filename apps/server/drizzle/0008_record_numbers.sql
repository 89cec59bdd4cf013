-- Bill lines get the number customers see (OD… orders, BL… bills; platform/doc-no.ts). Existing
-- lines are numbered deterministically from their creation time and id (12 hex digits of the id
-- where new lines have 12 random ones), so a rerun or a replica numbers them the same; then the
-- column takes its default (the numbering of metering's bulk insert) and becomes required.
ALTER TABLE "billing_records" ADD COLUMN "record_no" text;--> statement-breakpoint
UPDATE "billing_records" SET "record_no" =
  (CASE WHEN "kind" = 'metering' THEN 'BL' ELSE 'OD' END)
  || to_char("created_at" at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS')
  || lpad(upper(to_hex("id")), 12, '0');--> statement-breakpoint
ALTER TABLE "billing_records" ALTER COLUMN "record_no" SET DEFAULT ('BL' || to_char((now()) at time zone 'Asia/Shanghai', 'YYYYMMDDHH24MISS') || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 12)));--> statement-breakpoint
ALTER TABLE "billing_records" ALTER COLUMN "record_no" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_record_no" ON "billing_records" USING btree ("record_no");
