CREATE TABLE "row_tallies" (
	"tally" text NOT NULL,
	"user_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"k1" text NOT NULL,
	"k2" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "row_tallies_tally_user_id_tenant_id_k1_k2_pk" PRIMARY KEY("tally","user_id","tenant_id","k1","k2")
);
--> statement-breakpoint
CREATE TABLE "row_tally_marks" (
	"tally" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"upto" bigint NOT NULL,
	CONSTRAINT "row_tally_marks_tally_taken_at_pk" PRIMARY KEY("tally","taken_at")
);
--> statement-breakpoint
CREATE TABLE "row_tally_state" (
	"tally" text PRIMARY KEY NOT NULL,
	"done_upto" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "instances_user_live" ON "instances" USING btree ("user_id","tenant_id","id") WHERE "instances"."dismissed_at" is null and "instances"."status" <> 'RELEASED';--> statement-breakpoint
CREATE INDEX "instances_user_released" ON "instances" USING btree ("user_id","tenant_id","released_at","id") WHERE "instances"."dismissed_at" is null and "instances"."status" = 'RELEASED';--> statement-breakpoint
CREATE INDEX "recharge_orders_user_id" ON "recharge_orders" USING btree ("user_id","tenant_id","id");--> statement-breakpoint
CREATE INDEX "vouchers_user_id" ON "vouchers" USING btree ("user_id","id");