-- Issue 29: a voucher config made by a tenant operator belongs to its tenant (null: platform-wide).
ALTER TABLE "voucher_configs" ADD COLUMN "tenant_id" integer;--> statement-breakpoint
ALTER TABLE "voucher_configs" ADD CONSTRAINT "voucher_configs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;