CREATE TABLE "sino"."sandbox_outbox" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"message_id" char(24) NOT NULL,
	"channel" text NOT NULL,
	"to" jsonb NOT NULL,
	"from" text,
	"subject" text,
	"content" text NOT NULL,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sino"."integrations" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sino"."jobs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sino"."messages" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "sino"."messages" ADD COLUMN "integration_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."messages" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "sino"."messages" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "sino"."messages" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "sino"."sandbox_outbox" ADD CONSTRAINT "sandbox_outbox_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_outbox_environment_created" ON "sino"."sandbox_outbox" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_outbox_message" ON "sino"."sandbox_outbox" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "messages_provider_message" ON "sino"."messages" USING btree ("provider_id","provider_message_id") WHERE "sino"."messages"."provider_message_id" is not null;