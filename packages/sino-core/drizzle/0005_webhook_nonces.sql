CREATE TABLE "sino"."webhook_nonces" (
	"environment_id" char(24) NOT NULL,
	"provider_id" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_nonces_environment_id_provider_id_nonce_pk" PRIMARY KEY("environment_id","provider_id","nonce")
);
--> statement-breakpoint
ALTER TABLE "sino"."webhook_nonces" ADD CONSTRAINT "webhook_nonces_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_nonces_expires" ON "sino"."webhook_nonces" USING btree ("expires_at");