CREATE TABLE "simulated_images" (
	"host_id" integer NOT NULL,
	"ref" text NOT NULL,
	"files" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"env" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulated_images_host_id_ref_pk" PRIMARY KEY("host_id","ref")
);
--> statement-breakpoint
CREATE TABLE "user_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"size_bytes" bigint,
	"host_id" integer NOT NULL,
	"source_instance_id" bigint NOT NULL,
	"ref" text,
	"published" boolean DEFAULT false NOT NULL,
	"error" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_images" ADD CONSTRAINT "user_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_images" ADD CONSTRAINT "user_images_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_images" ADD CONSTRAINT "user_images_source_instance_id_instances_id_fk" FOREIGN KEY ("source_instance_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_images_user_idx" ON "user_images" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_images_ref_idx" ON "user_images" USING btree ("ref");--> statement-breakpoint
CREATE INDEX "user_images_deleting_idx" ON "user_images" USING btree ("status") WHERE status = 'DELETING';