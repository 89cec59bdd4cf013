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
ALTER TABLE "billing_records" ADD CONSTRAINT "billing_records_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_events" ADD CONSTRAINT "instance_events_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_sku_id_gpu_skus_id_fk" FOREIGN KEY ("sku_id") REFERENCES "public"."gpu_skus"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_records_user" ON "billing_records" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_records_instance" ON "billing_records" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "instance_events_instance" ON "instance_events" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "instances_user" ON "instances" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "instances_status" ON "instances" USING btree ("status","billing_type");--> statement-breakpoint
CREATE INDEX "instances_host" ON "instances" USING btree ("host_id");