CREATE TABLE "locadora"."tentativas_de_login" (
	"chave" text PRIMARY KEY NOT NULL,
	"falhas" integer NOT NULL,
	"janela_inicio" timestamp with time zone NOT NULL,
	"janela_fim" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tentativas_de_login_fim" ON "locadora"."tentativas_de_login" USING btree ("janela_fim");