CREATE TABLE "guard_account_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"idle_enabled" boolean DEFAULT false NOT NULL,
	"idle_threshold" smallint DEFAULT 5 NOT NULL,
	"idle_minutes" integer DEFAULT 60 NOT NULL,
	"warn_minutes" integer DEFAULT 10 NOT NULL,
	"daily_cap" bigint,
	"monthly_cap" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guard_instance_settings" (
	"instance_id" bigint PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"idle_custom" boolean DEFAULT false NOT NULL,
	"idle_enabled" boolean DEFAULT false NOT NULL,
	"idle_threshold" smallint DEFAULT 5 NOT NULL,
	"idle_minutes" integer DEFAULT 60 NOT NULL,
	"warn_minutes" integer DEFAULT 10 NOT NULL,
	"idle_reset_at" timestamp with time zone,
	"idle_warned_at" timestamp with time zone,
	"schedule_at" timestamp with time zone,
	"schedule_hours" integer,
	"schedule_warned_for" timestamp with time zone,
	"spending_cap" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guard_account_settings" ADD CONSTRAINT "guard_account_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guard_instance_settings" ADD CONSTRAINT "guard_instance_settings_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guard_instance_settings" ADD CONSTRAINT "guard_instance_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;