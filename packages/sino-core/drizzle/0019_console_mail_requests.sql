CREATE TABLE "sino"."console_mail_requests" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "console_mail_requests_end" ON "sino"."console_mail_requests" USING btree ("window_end");