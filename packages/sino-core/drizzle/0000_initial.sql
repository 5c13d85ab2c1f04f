CREATE SCHEMA IF NOT EXISTS "sino";
--> statement-breakpoint
CREATE TABLE "sino"."api_keys" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"key_hash" char(64) NOT NULL,
	"key_ciphertext" text NOT NULL,
	"hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sino"."environments" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"organization_id" char(24) NOT NULL,
	"name" text NOT NULL,
	"identifier" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."execution_details" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"notification_id" char(24) NOT NULL,
	"job_id" char(24),
	"subscriber_id" char(24),
	"transaction_id" text NOT NULL,
	"step_id" char(24),
	"channel" text,
	"code" integer,
	"detail" text NOT NULL,
	"status" text NOT NULL,
	"source" text DEFAULT 'Internal' NOT NULL,
	"is_retry" boolean DEFAULT false NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"raw" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."feeds" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"identifier" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."idempotency_keys" (
	"environment_id" char(24) NOT NULL,
	"key" text NOT NULL,
	"request_hash" char(64) NOT NULL,
	"status_code" integer,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_environment_id_key_pk" PRIMARY KEY("environment_id","key")
);
--> statement-breakpoint
CREATE TABLE "sino"."integrations" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"provider_id" text NOT NULL,
	"channel" text NOT NULL,
	"name" text NOT NULL,
	"identifier" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"hmac" boolean DEFAULT false NOT NULL,
	"credentials_ciphertext" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sino"."jobs" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"notification_id" char(24) NOT NULL,
	"workflow_id" char(24) NOT NULL,
	"subscriber_id" char(24) NOT NULL,
	"step_id" char(24) NOT NULL,
	"transaction_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"overrides" jsonb,
	"digest" jsonb,
	"run_at" timestamp with time zone,
	"queue_job_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."messages" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"notification_id" char(24) NOT NULL,
	"subscriber_id" char(24) NOT NULL,
	"workflow_id" char(24) NOT NULL,
	"template_identifier" text NOT NULL,
	"job_id" char(24) NOT NULL,
	"step_id" char(24) NOT NULL,
	"feed_id" char(24),
	"channel" text NOT NULL,
	"content" text NOT NULL,
	"subject" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cta" jsonb DEFAULT '{"type":"redirect","data":{}}'::jsonb NOT NULL,
	"actor" jsonb,
	"transaction_id" text NOT NULL,
	"seen" boolean DEFAULT false NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"last_seen_date" timestamp with time zone,
	"last_read_date" timestamp with time zone,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."notifications" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"workflow_id" char(24) NOT NULL,
	"subscriber_id" char(24) NOT NULL,
	"transaction_id" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tenant" jsonb,
	"actor_subscriber_id" char(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."organizations" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"branding" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."subscriber_preferences" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"subscriber_id" char(24) NOT NULL,
	"workflow_id" char(24),
	"enabled" boolean DEFAULT true NOT NULL,
	"channels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."subscribers" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"subscriber_id" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"phone" text,
	"avatar" text,
	"locale" text,
	"data" jsonb,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_online" boolean DEFAULT false NOT NULL,
	"last_online_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."tenants" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"identifier" text NOT NULL,
	"name" text,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."topic_subscribers" (
	"topic_id" char(24) NOT NULL,
	"subscriber_id" char(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "topic_subscribers_topic_id_subscriber_id_pk" PRIMARY KEY("topic_id","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "sino"."topics" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sino"."transactions" (
	"environment_id" char(24) NOT NULL,
	"transaction_id" text NOT NULL,
	"workflow_id" char(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_environment_id_transaction_id_pk" PRIMARY KEY("environment_id","transaction_id")
);
--> statement-breakpoint
CREATE TABLE "sino"."workflow_steps" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"workflow_id" char(24) NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"name" text,
	"active" boolean DEFAULT true NOT NULL,
	"should_stop_on_fail" boolean DEFAULT false NOT NULL,
	"filters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"template" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"metadata" jsonb
);
--> statement-breakpoint
CREATE TABLE "sino"."workflows" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"environment_id" char(24) NOT NULL,
	"organization_id" char(24) NOT NULL,
	"name" text NOT NULL,
	"identifier" text NOT NULL,
	"description" text,
	"active" boolean DEFAULT true NOT NULL,
	"critical" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"preference_settings" jsonb NOT NULL,
	"data" jsonb,
	"origin" text DEFAULT 'api' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sino"."api_keys" ADD CONSTRAINT "api_keys_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."environments" ADD CONSTRAINT "environments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "sino"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."feeds" ADD CONSTRAINT "feeds_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."integrations" ADD CONSTRAINT "integrations_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."jobs" ADD CONSTRAINT "jobs_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "sino"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."messages" ADD CONSTRAINT "messages_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "sino"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."subscriber_preferences" ADD CONSTRAINT "subscriber_preferences_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "sino"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."subscribers" ADD CONSTRAINT "subscribers_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."tenants" ADD CONSTRAINT "tenants_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."topic_subscribers" ADD CONSTRAINT "topic_subscribers_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "sino"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."topic_subscribers" ADD CONSTRAINT "topic_subscribers_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "sino"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."topics" ADD CONSTRAINT "topics_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."workflow_steps" ADD CONSTRAINT "workflow_steps_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "sino"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sino"."workflows" ADD CONSTRAINT "workflows_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "sino"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash" ON "sino"."api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "environments_identifier" ON "sino"."environments" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "execution_details_environment_transaction" ON "sino"."execution_details" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "execution_details_job" ON "sino"."execution_details" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "execution_details_notification" ON "sino"."execution_details" USING btree ("notification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "feeds_environment_identifier" ON "sino"."feeds" USING btree ("environment_id","identifier");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "sino"."idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_environment_identifier" ON "sino"."integrations" USING btree ("environment_id","identifier") WHERE "sino"."integrations"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "integrations_environment_channel" ON "sino"."integrations" USING btree ("environment_id","channel");--> statement-breakpoint
CREATE INDEX "jobs_environment_transaction" ON "sino"."jobs" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "jobs_notification" ON "sino"."jobs" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "jobs_digest_open" ON "sino"."jobs" USING btree ("environment_id","subscriber_id","step_id") WHERE "sino"."jobs"."type" = 'digest' and "sino"."jobs"."status" = 'delayed';--> statement-breakpoint
CREATE INDEX "messages_subscriber_feed" ON "sino"."messages" USING btree ("subscriber_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "sino"."messages"."channel" = 'in_app' and not "sino"."messages"."deleted";--> statement-breakpoint
CREATE INDEX "messages_subscriber_unseen" ON "sino"."messages" USING btree ("subscriber_id","feed_id") WHERE "sino"."messages"."channel" = 'in_app' and not "sino"."messages"."deleted" and not "sino"."messages"."seen";--> statement-breakpoint
CREATE INDEX "messages_subscriber_unread" ON "sino"."messages" USING btree ("subscriber_id","feed_id") WHERE "sino"."messages"."channel" = 'in_app' and not "sino"."messages"."deleted" and not "sino"."messages"."read";--> statement-breakpoint
CREATE INDEX "messages_environment_transaction" ON "sino"."messages" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "notifications_environment_transaction" ON "sino"."notifications" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "notifications_environment_created" ON "sino"."notifications" USING btree ("environment_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_subscriber_created" ON "sino"."notifications" USING btree ("subscriber_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriber_preferences_workflow" ON "sino"."subscriber_preferences" USING btree ("subscriber_id","workflow_id") WHERE "sino"."subscriber_preferences"."workflow_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriber_preferences_global" ON "sino"."subscriber_preferences" USING btree ("subscriber_id") WHERE "sino"."subscriber_preferences"."workflow_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_environment_subscriber" ON "sino"."subscribers" USING btree ("environment_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "subscribers_environment_created" ON "sino"."subscribers" USING btree ("environment_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_environment_identifier" ON "sino"."tenants" USING btree ("environment_id","identifier");--> statement-breakpoint
CREATE INDEX "topic_subscribers_subscriber" ON "sino"."topic_subscribers" USING btree ("subscriber_id");--> statement-breakpoint
CREATE UNIQUE INDEX "topics_environment_key" ON "sino"."topics" USING btree ("environment_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_steps_workflow_position" ON "sino"."workflow_steps" USING btree ("workflow_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_environment_identifier" ON "sino"."workflows" USING btree ("environment_id","identifier") WHERE "sino"."workflows"."deleted_at" is null;