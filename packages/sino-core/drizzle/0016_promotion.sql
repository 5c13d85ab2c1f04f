CREATE TABLE "sino"."changes" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" char(24) NOT NULL,
	"creator_id" char(24),
	"snapshot" jsonb,
	"previous" jsonb,
	"diff" jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"applied_at" timestamp with time zone,
	"applied_by" char(24),
	"rolled_back_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sino"."feeds" ADD COLUMN "parent_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."layouts" ADD COLUMN "parent_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."notification_groups" ADD COLUMN "parent_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."workflows" ADD COLUMN "parent_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."changes" ADD CONSTRAINT "changes_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "changes_pending_entity" ON "sino"."changes" USING btree ("environment_id","entity_type","entity_id") WHERE not "sino"."changes"."enabled";--> statement-breakpoint
CREATE INDEX "changes_environment" ON "sino"."changes" USING btree ("environment_id","enabled","created_at","id");--> statement-breakpoint
CREATE INDEX "changes_entity" ON "sino"."changes" USING btree ("entity_type","entity_id","applied_at");--> statement-breakpoint
CREATE INDEX "feeds_parent" ON "sino"."feeds" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "layouts_parent" ON "sino"."layouts" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "notification_groups_parent" ON "sino"."notification_groups" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "workflows_parent" ON "sino"."workflows" USING btree ("parent_id");