-- Trigram indexes (users' phone and name) need pg_trgm: a trusted extension (PostgreSQL 13+), so the database owner may create it; PGlite loads it in platform/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "ops_daily_totals" (
	"day" date NOT NULL,
	"tenant_id" integer NOT NULL,
	"recharge" bigint NOT NULL,
	"consumption" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	CONSTRAINT "ops_daily_totals_day_tenant_id_pk" PRIMARY KEY("day","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "ops_rolled_days" (
	"day" date PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ops_daily_totals" ADD CONSTRAINT "ops_daily_totals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_phone_trgm" ON "users" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_username_trgm" ON "users" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "billing_records_time" ON "billing_records" USING btree ("created_at");--> statement-breakpoint
-- Hand-edited: instances_user_list INCLUDEs what the list's filters read (status, released_at), so
-- its page ids and its count come from the index alone. Drizzle cannot declare INCLUDE.
CREATE INDEX "instances_user_list" ON "instances" USING btree ("user_id","tenant_id","id") INCLUDE ("status","released_at") WHERE "instances"."dismissed_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_entries_time" ON "ledger_entries" USING btree ("created_at");--> statement-breakpoint
-- Hand-edited: the wallet's index INCLUDEs remaining (its filters and figures read the index alone).
DROP INDEX "vouchers_user";--> statement-breakpoint
CREATE INDEX "vouchers_user" ON "vouchers" USING btree ("user_id","expires_at","id") INCLUDE ("remaining");
