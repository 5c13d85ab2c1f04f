CREATE SCHEMA IF NOT EXISTS "fixture";
--> statement-breakpoint
CREATE TABLE "fixture"."itens" ("id" serial PRIMARY KEY, "nome" text NOT NULL UNIQUE);
