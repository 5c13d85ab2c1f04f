CREATE TABLE "sino"."notification_groups" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sino"."workflows" ADD COLUMN "notification_group_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."notification_groups" ADD CONSTRAINT "notification_groups_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_groups_environment" ON "sino"."notification_groups" USING btree ("environment_id","created_at","id");--> statement-breakpoint
ALTER TABLE "sino"."workflows" ADD CONSTRAINT "workflows_notification_group_id_notification_groups_id_fk" FOREIGN KEY ("notification_group_id") REFERENCES "sino"."notification_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workflows_notification_group" ON "sino"."workflows" USING btree ("notification_group_id");--> statement-breakpoint
-- Every environment made before groups gets its "General" group, and its workflows go in it
-- (an ObjectId-shaped id: the creation second, then a hash of the environment).
INSERT INTO "sino"."notification_groups" ("id", "environment_id", "organization_id", "name")
SELECT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(e."id" || 'general'), 1, 16),
       e."id", e."organization_id", 'General'
FROM "sino"."environments" e
WHERE NOT EXISTS (SELECT 1 FROM "sino"."notification_groups" g WHERE g."environment_id" = e."id");--> statement-breakpoint
UPDATE "sino"."workflows" w SET "notification_group_id" = g."id"
FROM "sino"."notification_groups" g
WHERE g."environment_id" = w."environment_id" AND w."notification_group_id" IS NULL
  AND w."deleted_at" IS NULL;
