CREATE TABLE "sino"."audit_log" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"organization_id" char(24) NOT NULL,
	"environment_id" char(24),
	"actor_type" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."console_login_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."console_sessions" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"refresh_hash" char(64) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"environment_id" char(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sino"."members" (
	"organization_id" char(24) NOT NULL,
	"user_id" char(24) NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "members_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sino"."user_identities" (
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"user_id" char(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_identities_provider_provider_user_id_pk" PRIMARY KEY("provider","provider_user_id")
);
--> statement-breakpoint
CREATE TABLE "sino"."users" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"password_hash" text,
	"status" text DEFAULT 'new' NOT NULL,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sino"."audit_log" ADD CONSTRAINT "audit_log_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "sino"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."console_sessions" ADD CONSTRAINT "console_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "sino"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."console_sessions" ADD CONSTRAINT "console_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "sino"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."console_sessions" ADD CONSTRAINT "console_sessions_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."members" ADD CONSTRAINT "members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "sino"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "sino"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."user_identities" ADD CONSTRAINT "user_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "sino"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_organization" ON "sino"."audit_log" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "console_login_attempts_end" ON "sino"."console_login_attempts" USING btree ("window_end");--> statement-breakpoint
CREATE UNIQUE INDEX "console_sessions_refresh" ON "sino"."console_sessions" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "console_sessions_user" ON "sino"."console_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "members_user" ON "sino"."members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_identities_user" ON "sino"."user_identities" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email" ON "sino"."users" USING btree ("email");