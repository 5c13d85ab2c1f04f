CREATE TABLE "sino"."layouts" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"name" text NOT NULL,
	"identifier" text NOT NULL,
	"description" text,
	"content" text NOT NULL,
	"variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "layouts_default_is_live" CHECK (not ("sino"."layouts"."is_default" and "sino"."layouts"."deleted_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "sino"."layouts" ADD CONSTRAINT "layouts_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "layouts_environment_identifier" ON "sino"."layouts" USING btree ("environment_id","identifier") WHERE "sino"."layouts"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "layouts_environment_default" ON "sino"."layouts" USING btree ("environment_id") WHERE "sino"."layouts"."is_default" and "sino"."layouts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "layouts_environment" ON "sino"."layouts" USING btree ("environment_id","created_at","id");--> statement-breakpoint
-- Every environment made before layouts gets the default layout (src/modules/layouts/
-- default-layout.ts, the same content), as new environments get it (an ObjectId-shaped id: the
-- creation second, then a hash of the environment).
INSERT INTO "sino"."layouts" ("id", "environment_id", "organization_id", "name", "identifier", "description", "content", "is_default")
SELECT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(e."id" || 'layout'), 1, 16),
       e."id", e."organization_id", 'Default layout', 'sino-default-layout',
       'The environment''s first layout: the organisation''s branding around the email.',
       '<!DOCTYPE html>
<html dir="{{#if branding.direction}}{{branding.direction}}{{else}}ltr{{/if}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>{{subject}}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr>
<td align="center" style="padding:32px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
{{#if branding.logo}}
<tr>
<td align="center" style="padding:0 0 20px 0;">
<img src="{{branding.logo}}" alt="{{branding.name}}" height="48" style="display:block;height:48px;width:auto;max-width:240px;border:0;outline:none;text-decoration:none;">
</td>
</tr>
{{/if}}
<tr>
<td style="background-color:{{branding.contentBackground}};border-top:4px solid {{branding.color}};border-radius:8px;padding:32px 28px;font-family:{{branding.fontFamily}};font-size:16px;line-height:1.6;color:{{branding.fontColor}};">
{{{body}}}
</td>
</tr>
</table>
</td>
</tr>
</table>
</body>
</html>
', true
FROM "sino"."environments" e
WHERE NOT EXISTS (SELECT 1 FROM "sino"."layouts" l WHERE l."environment_id" = e."id");
