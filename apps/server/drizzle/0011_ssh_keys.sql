CREATE TABLE "user_ssh_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"key_type" text NOT NULL,
	"bits" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "simulated_containers" ADD COLUMN "ssh_access" jsonb;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ssh_password_auth" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "user_ssh_keys" ADD CONSTRAINT "user_ssh_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ssh_keys" ADD CONSTRAINT "user_ssh_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_ssh_keys_user_fingerprint" ON "user_ssh_keys" USING btree ("user_id","fingerprint");--> statement-breakpoint
CREATE INDEX "user_ssh_keys_user" ON "user_ssh_keys" USING btree ("user_id","id");