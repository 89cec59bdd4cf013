CREATE TABLE "admins" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"roles" jsonb DEFAULT '["ADMIN"]'::jsonb NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"tokens_valid_after" timestamp with time zone DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admins_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" integer,
	"action" text NOT NULL,
	"target" text,
	"detail" jsonb,
	"ip" "inet",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"family" text NOT NULL,
	"token_hash" text NOT NULL,
	"remember_me" boolean NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"phone" text NOT NULL,
	"username" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"sales_name" text,
	"sales_phone" text,
	"certified" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"tokens_valid_after" timestamp with time zone DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"phone" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"available" bigint DEFAULT 0 NOT NULL,
	"frozen" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"frozen_amount" bigint DEFAULT 0 NOT NULL,
	"available_after" bigint NOT NULL,
	"frozen_after" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('recharge', 'charge', 'refund', 'voucher', 'adjustment')),
	CONSTRAINT "ledger_entries_nonzero" CHECK ("ledger_entries"."amount" <> 0 or "ledger_entries"."frozen_amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "discounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer,
	"region_id" integer,
	"gpu_model" text,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rate_bp" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "host_gpus" (
	"id" serial PRIMARY KEY NOT NULL,
	"host_id" integer NOT NULL,
	"index" integer NOT NULL,
	"uuid" text NOT NULL,
	"model" text NOT NULL,
	"memory_gb" integer NOT NULL,
	"instance_id" bigint,
	"reserved_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "host_ports" (
	"host_id" integer NOT NULL,
	"port" integer NOT NULL,
	"instance_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "host_ports_host_id_port_pk" PRIMARY KEY("host_id","port")
);
--> statement-breakpoint
CREATE TABLE "hosts" (
	"id" serial PRIMARY KEY NOT NULL,
	"region_id" integer NOT NULL,
	"name" text NOT NULL,
	"driver" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"public_address" text DEFAULT '' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cpu_model" text DEFAULT '' NOT NULL,
	"cpu_cores" integer DEFAULT 0 NOT NULL,
	"memory_gb" integer DEFAULT 0 NOT NULL,
	"system_disk_gb" integer DEFAULT 0 NOT NULL,
	"data_disk_gb" integer DEFAULT 0 NOT NULL,
	"port_range_start" integer DEFAULT 30000 NOT NULL,
	"port_range_end" integer DEFAULT 30999 NOT NULL,
	"nvidia_driver" text DEFAULT '' NOT NULL,
	"cuda_version" text DEFAULT '' NOT NULL,
	"last_probe_at" timestamp with time zone,
	"last_probe_ok" boolean,
	"last_probe_error" text,
	"engine_version" text DEFAULT '' NOT NULL,
	"nvidia_runtime" boolean,
	"gpu_source" text DEFAULT 'declared' NOT NULL,
	"disk_limit_supported" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hosts_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"overseas" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "regions_name_unique" UNIQUE("name"),
	CONSTRAINT "regions_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "simulated_containers" (
	"id" text PRIMARY KEY NOT NULL,
	"host_id" integer NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"env_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"gpu_indices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cpus" integer,
	"memory_gb" integer,
	"disk_gb" integer,
	"exit_code" integer,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"instance_id" bigint NOT NULL,
	"billing_type" text NOT NULL,
	"kind" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"amount" bigint NOT NULL,
	"voucher_amount" bigint DEFAULT 0 NOT NULL,
	"ledger_entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_id" bigint NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"host_id" integer NOT NULL,
	"sku_id" integer NOT NULL,
	"region_id" integer NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	"gpu_model" text NOT NULL,
	"gpu_count" integer NOT NULL,
	"gpu_indices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"billing_type" text NOT NULL,
	"hourly_rate" bigint NOT NULL,
	"package_unit_price" bigint,
	"discount_rate_bp" integer,
	"duration" integer DEFAULT 1 NOT NULL,
	"status" text NOT NULL,
	"container_id" text,
	"ssh_port" integer,
	"jupyter_port" integer,
	"root_password_enc" text NOT NULL,
	"accrued_closed" bigint DEFAULT 0 NOT NULL,
	"charged" bigint DEFAULT 0 NOT NULL,
	"running_since" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"stop_reason" text,
	"warning" text,
	"transition_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gpu_skus" (
	"id" serial PRIMARY KEY NOT NULL,
	"host_id" integer NOT NULL,
	"gpu_model" text NOT NULL,
	"gpu_brand" text DEFAULT 'NVIDIA' NOT NULL,
	"memory_gb" integer NOT NULL,
	"cpu_per_gpu" integer NOT NULL,
	"memory_per_gpu_gb" integer DEFAULT 0 NOT NULL,
	"system_disk_gb" integer NOT NULL,
	"data_disk_gb" integer NOT NULL,
	"hourly_price" bigint NOT NULL,
	"listed" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" serial PRIMARY KEY NOT NULL,
	"image_name" text NOT NULL,
	"image_url" text NOT NULL,
	"framework_type" text NOT NULL,
	"framework_version" text DEFAULT '' NOT NULL,
	"python_version" text DEFAULT '' NOT NULL,
	"cuda_version" text DEFAULT '' NOT NULL,
	"cann_version" text DEFAULT '' NOT NULL,
	"musa_version" text DEFAULT '' NOT NULL,
	"os_info" text DEFAULT '' NOT NULL,
	"gpu_brand" text DEFAULT 'NVIDIA' NOT NULL,
	"platform_type" text DEFAULT 'local' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"preset" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_image_url_unique" UNIQUE("image_url")
);
--> statement-breakpoint
CREATE TABLE "recharge_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"payment_type" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"qr_code" text,
	"provider_trade_no" text,
	"fail_reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"last_queried_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recharge_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "recharge_orders_status" CHECK ("recharge_orders"."status" in ('PENDING', 'SUCCESS', 'FAIL', 'CLOSED')),
	CONSTRAINT "recharge_orders_amount" CHECK ("recharge_orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "package_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"gpu_type" text NOT NULL,
	"region_id" integer NOT NULL,
	"platform" text DEFAULT 'local' NOT NULL,
	"daily_price" bigint NOT NULL,
	"weekly_price" bigint NOT NULL,
	"monthly_price" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenant_domains" (
	"host" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenant_hosts" (
	"tenant_id" integer NOT NULL,
	"host_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_hosts_tenant_id_host_id_pk" PRIMARY KEY("tenant_id","host_id")
);
--> statement-breakpoint
CREATE TABLE "tenant_sku_prices" (
	"tenant_id" integer NOT NULL,
	"sku_id" integer NOT NULL,
	"hourly_price" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_sku_prices_tenant_id_sku_id_pk" PRIMARY KEY("tenant_id","sku_id")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"config" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenants_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_gpus" ADD CONSTRAINT "host_gpus_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_ports" ADD CONSTRAINT "host_ports_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulated_containers" ADD CONSTRAINT "simulated_containers_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_records" ADD CONSTRAINT "billing_records_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_events" ADD CONSTRAINT "instance_events_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_sku_id_gpu_skus_id_fk" FOREIGN KEY ("sku_id") REFERENCES "public"."gpu_skus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gpu_skus" ADD CONSTRAINT "gpu_skus_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_prices" ADD CONSTRAINT "package_prices_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_domains" ADD CONSTRAINT "tenant_domains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_hosts" ADD CONSTRAINT "tenant_hosts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_sku_prices" ADD CONSTRAINT "tenant_sku_prices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_admin" ON "audit_log" USING btree ("admin_id","created_at");--> statement-breakpoint
CREATE INDEX "login_failures_account" ON "login_failures" USING btree ("account","created_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family" ON "refresh_tokens" USING btree ("family");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_phone" ON "users" USING btree ("tenant_id","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_username" ON "users" USING btree ("tenant_id","username");--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_email" ON "users" USING btree ("tenant_id","email") WHERE "users"."email" is not null;--> statement-breakpoint
CREATE INDEX "verification_codes_lookup" ON "verification_codes" USING btree ("tenant_id","phone","purpose","created_at");--> statement-breakpoint
CREATE INDEX "verification_codes_ip" ON "verification_codes" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_user" ON "ledger_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_reference" ON "ledger_entries" USING btree ("reference_type","reference_id");--> statement-breakpoint
CREATE INDEX "discounts_window" ON "discounts" USING btree ("enabled","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "host_gpus_host_index" ON "host_gpus" USING btree ("host_id","index");--> statement-breakpoint
CREATE INDEX "host_gpus_instance" ON "host_gpus" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "host_ports_instance" ON "host_ports" USING btree ("instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_containers_host_name" ON "simulated_containers" USING btree ("host_id","name");--> statement-breakpoint
CREATE INDEX "billing_records_user" ON "billing_records" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_records_instance" ON "billing_records" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "instance_events_instance" ON "instance_events" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "instances_user" ON "instances" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "instances_status" ON "instances" USING btree ("status","billing_type");--> statement-breakpoint
CREATE INDEX "instances_host" ON "instances" USING btree ("host_id");--> statement-breakpoint
CREATE INDEX "gpu_skus_host" ON "gpu_skus" USING btree ("host_id");--> statement-breakpoint
CREATE INDEX "recharge_orders_user" ON "recharge_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "recharge_orders_pending" ON "recharge_orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "package_prices_key" ON "package_prices" USING btree ("gpu_type","region_id","platform");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_one_default" ON "tenants" USING btree ("is_default") WHERE "tenants"."is_default";