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
ALTER TABLE "auth_sessions" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "blockchain_orders" ADD CONSTRAINT "blockchain_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enquiries" ADD CONSTRAINT "enquiries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blockchain_orders_tx" ON "blockchain_orders" USING btree ("chain","tx_hash");--> statement-breakpoint
CREATE INDEX "blockchain_orders_user" ON "blockchain_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "blockchain_orders_pending" ON "blockchain_orders" USING btree ("status","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_chain_txs_pk" ON "simulated_chain_txs" USING btree ("chain","tx_hash");--> statement-breakpoint
CREATE INDEX "enquiries_tenant_time" ON "enquiries" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "enquiries_status" ON "enquiries" USING btree ("status");