CREATE TABLE "sino"."workflow_overrides" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"workflow_id" char(24) NOT NULL,
	"tenant_id" char(24) NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"preference_settings" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sino"."jobs" ADD COLUMN "tenant" jsonb;--> statement-breakpoint
ALTER TABLE "sino"."jobs" ADD COLUMN "tenant_preferences" jsonb;--> statement-breakpoint
ALTER TABLE "sino"."workflow_overrides" ADD CONSTRAINT "workflow_overrides_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."workflow_overrides" ADD CONSTRAINT "workflow_overrides_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "sino"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."workflow_overrides" ADD CONSTRAINT "workflow_overrides_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "sino"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_overrides_workflow_tenant" ON "sino"."workflow_overrides" USING btree ("workflow_id","tenant_id");--> statement-breakpoint
CREATE INDEX "workflow_overrides_tenant" ON "sino"."workflow_overrides" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "workflow_overrides_environment_created" ON "sino"."workflow_overrides" USING btree ("environment_id","created_at","id");