CREATE TABLE "locadora"."verificacoes_de_email" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"usuario_id" integer NOT NULL,
	"email" text NOT NULL,
	"expira_em" timestamp with time zone NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locadora"."usuarios" ADD COLUMN "email_verificado_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locadora"."verificacoes_de_email" ADD CONSTRAINT "verificacoes_de_email_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "locadora"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verificacoes_de_email_usuario" ON "locadora"."verificacoes_de_email" USING btree ("usuario_id");