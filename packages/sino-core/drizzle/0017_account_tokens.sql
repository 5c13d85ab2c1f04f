CREATE TABLE "sino"."account_tokens" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" char(64) NOT NULL,
	"email" text NOT NULL,
	"organization_id" char(24),
	"role" text,
	"invited_by" char(24),
	"user_id" char(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sino"."account_tokens" ADD CONSTRAINT "account_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "sino"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."account_tokens" ADD CONSTRAINT "account_tokens_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "sino"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "sino"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_hash" ON "sino"."account_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_tokens_organization" ON "sino"."account_tokens" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "account_tokens_user" ON "sino"."account_tokens" USING btree ("user_id","purpose","created_at");