CREATE TABLE "row_tally_bookmarks" (
	"tally" text NOT NULL,
	"user_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"nth" bigint NOT NULL,
	"id" bigint NOT NULL,
	CONSTRAINT "row_tally_bookmarks_tally_user_id_tenant_id_nth_pk" PRIMARY KEY("tally","user_id","tenant_id","nth")
);
--> statement-breakpoint
CREATE INDEX "host_ports_held" ON "host_ports" USING btree ("host_id") WHERE "host_ports"."instance_id" is not null;--> statement-breakpoint
CREATE INDEX "instances_user_running" ON "instances" USING btree ("user_id") WHERE "instances"."status" = 'RUNNING';--> statement-breakpoint
CREATE INDEX "instances_user_dismissed" ON "instances" USING btree ("user_id","tenant_id") WHERE "instances"."dismissed_at" is not null;