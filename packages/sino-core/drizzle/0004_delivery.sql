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
CREATE INDEX "messages_provider_message" ON "sino"."messages" USING btree ("provider_id","provider_message_id") WHERE "sino"."messages"."provider_message_id" is not null;--> statement-breakpoint
-- Written by hand: environments created before delivery existed get the sandbox email and SMS
-- providers a new environment has (identity repository, addDefaultIntegrations), active and
-- primary, so their email and SMS steps deliver into the sandbox outbox until a real provider
-- is configured. Ids as the application makes them: 8 hex of seconds, 16 more.
INSERT INTO "sino"."integrations" ("id", "environment_id", "organization_id", "provider_id", "channel", "name", "identifier", "active", "primary", "priority")
SELECT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(e."id" || s.provider_id), 1, 16),
  e."id", e."organization_id", s.provider_id, s.channel, s.name, s.identifier, true, true, 1
FROM "sino"."environments" e
CROSS JOIN (VALUES
  ('novu-email', 'email', 'Sino Email (sandbox)', 'sino-email-sandbox'),
  ('novu-sms', 'sms', 'Sino SMS (sandbox)', 'sino-sms-sandbox')
) AS s(provider_id, channel, name, identifier)
WHERE NOT EXISTS (
  SELECT 1 FROM "sino"."integrations" i
  WHERE i."environment_id" = e."id" AND i."channel" = s.channel AND i."deleted_at" IS NULL
);
