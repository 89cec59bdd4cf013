DROP INDEX "audit_log_admin";--> statement-breakpoint
DROP INDEX "audit_log_time";--> statement-breakpoint
DROP INDEX "audit_log_target";--> statement-breakpoint
DROP INDEX "billing_records_user";--> statement-breakpoint
DROP INDEX "instances_status";--> statement-breakpoint
DROP INDEX "recharge_orders_user";--> statement-breakpoint
DROP INDEX "vouchers_user";--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree ("action","created_at","id");--> statement-breakpoint
CREATE INDEX "billing_records_orders" ON "billing_records" USING btree ("user_id","tenant_id","id") WHERE kind in ('create', 'renewal', 'refund');--> statement-breakpoint
CREATE INDEX "accounts_available" ON "accounts" USING btree ("available","user_id");--> statement-breakpoint
CREATE INDEX "audit_log_admin" ON "audit_log" USING btree ("admin_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_time" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target","created_at","id");--> statement-breakpoint
CREATE INDEX "billing_records_user" ON "billing_records" USING btree ("user_id","tenant_id","id","created_at");--> statement-breakpoint
CREATE INDEX "instances_status" ON "instances" USING btree ("status","billing_type","id");--> statement-breakpoint
CREATE INDEX "recharge_orders_user" ON "recharge_orders" USING btree ("user_id","tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "vouchers_user" ON "vouchers" USING btree ("user_id","expires_at","id");