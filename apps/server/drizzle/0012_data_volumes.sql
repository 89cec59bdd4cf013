CREATE TABLE "simulated_volumes" (
	"host_id" integer NOT NULL,
	"name" text NOT NULL,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"size_gb" integer,
	"files" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulated_volumes_host_id_name_pk" PRIMARY KEY("host_id","name")
);
--> statement-breakpoint
ALTER TABLE "simulated_containers" ADD COLUMN "data_volume" jsonb;--> statement-breakpoint
ALTER TABLE "simulated_containers" ADD COLUMN "files" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "simulated_volumes" ADD CONSTRAINT "simulated_volumes_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE cascade ON UPDATE no action;