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
ALTER TABLE "auth_sessions" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "enquiries" ADD CONSTRAINT "enquiries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enquiries_tenant_time" ON "enquiries" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "enquiries_status" ON "enquiries" USING btree ("status");