CREATE TABLE "sino"."delivery_stats" (
	"environment_id" char(24) NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"channel" text NOT NULL,
	"provider_id" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"failovers" integer DEFAULT 0 NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"latency" integer[] DEFAULT '{}'::integer[] NOT NULL,
	CONSTRAINT "delivery_stats_environment_id_hour_channel_provider_id_pk" PRIMARY KEY("environment_id","hour","channel","provider_id")
);
--> statement-breakpoint
ALTER TABLE "sino"."delivery_stats" ADD CONSTRAINT "delivery_stats_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_stats_hour" ON "sino"."delivery_stats" USING btree ("hour");