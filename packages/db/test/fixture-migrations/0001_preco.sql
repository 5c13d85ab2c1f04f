ALTER TABLE "fixture"."itens" ADD COLUMN "preco" integer NOT NULL DEFAULT 0;
