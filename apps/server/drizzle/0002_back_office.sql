CREATE TABLE "blockchain_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"chain" text NOT NULL,
	"currency" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"credit_amount" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"fail_reason" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blockchain_orders_order_no_unique" UNIQUE("order_no")
);
--> statement-breakpoint
CREATE TABLE "simulated_chain_txs" (
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"status" text NOT NULL,
	"amount_micro" bigint NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enquiries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"company" text,
	"product" text NOT NULL,
	"quantity" integer NOT NULL,
	"question" text,
	"status" text DEFAULT 'NEW' NOT NULL,
	"ip" text,
	"handled_by" integer,
	"handled_at" timestamp with time zone,
	"handled_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"instance_id" bigint,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploaded_files" (
	"id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"data" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vastai_offers" (
	"offer_id" bigint PRIMARY KEY NOT NULL,
	"gpu_name" text NOT NULL,
	"num_gpus" integer NOT NULL,
	"gpu_memory_gb" integer NOT NULL,
	"cpu_name" text DEFAULT '' NOT NULL,
	"cpu_cores" integer DEFAULT 0 NOT NULL,
	"memory_gb" integer DEFAULT 0 NOT NULL,
	"disk_gb" integer DEFAULT 0 NOT NULL,
	"usd_micros_per_hour" bigint NOT NULL,
	"geolocation" text DEFAULT '' NOT NULL,
	"cuda_version" text DEFAULT '' NOT NULL,
	"driver_version" text DEFAULT '' NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vastai_rentals" (
	"instance_id" bigint PRIMARY KEY NOT NULL,
	"offer_id" bigint NOT NULL,
	"usd_micros_per_hour" bigint NOT NULL,
	"disk_gb" integer NOT NULL,
	"vast_instance_id" bigint,
	"ssh_host" text,
	"ssh_port" integer,
	"vast_status" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voucher_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"face_amount" bigint NOT NULL,
	"valid_days" integer,
	"valid_until" timestamp with time zone,
	"region_id" integer,
	"gpu_model" text,
	"min_order_amount" bigint DEFAULT 0 NOT NULL,
	"per_user_limit" integer DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voucher_distribution_items" (
	"distribution_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"voucher_id" bigint NOT NULL,
	CONSTRAINT "voucher_distribution_items_distribution_id_user_id_pk" PRIMARY KEY("distribution_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "voucher_distributions" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"config_id" integer NOT NULL,
	"target" jsonb NOT NULL,
	"target_count" integer DEFAULT 0 NOT NULL,
	"issued_count" integer DEFAULT 0 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_distributions_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"distribution_id" integer,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount" bigint NOT NULL,
	"remaining" bigint NOT NULL,
	"min_order_amount" bigint DEFAULT 0 NOT NULL,
	"region_id" integer,
	"gpu_model" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vouchers_code_unique" UNIQUE("code"),
	CONSTRAINT "vouchers_remaining" CHECK ("vouchers"."remaining" >= 0 and "vouchers"."remaining" <= "vouchers"."amount")
);
--> statement-breakpoint
DROP INDEX "billing_records_instance";--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "regions" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ssh_host" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "voucher_id" bigint;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "voucher_held" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "voucher_used" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "transition_job" jsonb;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD COLUMN "daily_price" bigint;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD COLUMN "weekly_price" bigint;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD COLUMN "monthly_price" bigint;--> statement-breakpoint
ALTER TABLE "blockchain_orders" ADD CONSTRAINT "blockchain_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enquiries" ADD CONSTRAINT "enquiries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notices" ADD CONSTRAINT "user_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vastai_rentals" ADD CONSTRAINT "vastai_rentals_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_configs" ADD CONSTRAINT "voucher_configs_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_distribution_items" ADD CONSTRAINT "voucher_distribution_items_distribution_id_voucher_distributions_id_fk" FOREIGN KEY ("distribution_id") REFERENCES "public"."voucher_distributions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_distribution_items" ADD CONSTRAINT "voucher_distribution_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_distribution_items" ADD CONSTRAINT "voucher_distribution_items_voucher_id_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_distributions" ADD CONSTRAINT "voucher_distributions_config_id_voucher_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."voucher_configs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_distributions" ADD CONSTRAINT "voucher_distributions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_config_id_voucher_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."voucher_configs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blockchain_orders_tx" ON "blockchain_orders" USING btree ("chain","tx_hash");--> statement-breakpoint
CREATE INDEX "blockchain_orders_user" ON "blockchain_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "blockchain_orders_pending" ON "blockchain_orders" USING btree ("status","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_chain_txs_pk" ON "simulated_chain_txs" USING btree ("chain","tx_hash");--> statement-breakpoint
CREATE INDEX "enquiries_tenant_time" ON "enquiries" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "enquiries_status" ON "enquiries" USING btree ("status");--> statement-breakpoint
CREATE INDEX "user_notices_user" ON "user_notices" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "vouchers_user" ON "vouchers" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "vouchers_config" ON "vouchers" USING btree ("config_id","user_id");--> statement-breakpoint
CREATE INDEX "audit_log_time" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target","created_at");