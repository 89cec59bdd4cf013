ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_tenant" UNIQUE("user_id","tenant_id");--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_user_id_accounts_user_id_fk";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_tenant_id_tenants_id_fk";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_fk" FOREIGN KEY ("user_id","tenant_id") REFERENCES "public"."accounts"("user_id","tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "ledger_entries_reference";
