CREATE TABLE "uploaded_files" (
	"id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"data" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "regions" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD COLUMN "daily_price" bigint;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD COLUMN "weekly_price" bigint;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD COLUMN "monthly_price" bigint;