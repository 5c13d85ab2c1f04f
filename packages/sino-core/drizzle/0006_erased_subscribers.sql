CREATE TABLE "sino"."erased_subscribers" (
	"environment_id" char(24) NOT NULL,
	"subscriber_key" char(64) NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erased_subscribers_environment_id_subscriber_key_pk" PRIMARY KEY("environment_id","subscriber_key")
);
--> statement-breakpoint
ALTER TABLE "sino"."erased_subscribers" ADD CONSTRAINT "erased_subscribers_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;