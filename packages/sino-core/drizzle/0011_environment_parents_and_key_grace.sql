ALTER TABLE "sino"."environments" ADD COLUMN "parent_id" char(24);--> statement-breakpoint
ALTER TABLE "sino"."environments" ADD CONSTRAINT "environments_parent_id_environments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "sino"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_environment" ON "sino"."api_keys" USING btree ("environment_id","created_at");--> statement-breakpoint
-- An organization's Production environment made before parents is promoted from its
-- Development one (when it has exactly one).
UPDATE "sino"."environments" p SET "parent_id" = d."id"
FROM "sino"."environments" d
WHERE p."name" = 'Production' AND p."parent_id" IS NULL
  AND d."organization_id" = p."organization_id" AND d."name" = 'Development'
  AND (SELECT count(*) FROM "sino"."environments" x
       WHERE x."organization_id" = p."organization_id" AND x."name" = 'Development') = 1;
