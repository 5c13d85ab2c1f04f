CREATE TABLE "locadora"."outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"fluxo" text NOT NULL,
	"usuario_id" integer,
	"equipe" boolean DEFAULT false NOT NULL,
	"payload" jsonb NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	"tentativas" integer DEFAULT 0 NOT NULL,
	"proxima_tentativa" timestamp with time zone DEFAULT now() NOT NULL,
	"entregue_em" timestamp with time zone,
	"descartado_em" timestamp with time zone,
	"ultimo_erro" text
);
--> statement-breakpoint
ALTER TABLE "locadora"."outbox" ADD CONSTRAINT "outbox_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "locadora"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_pendentes" ON "locadora"."outbox" USING btree ("proxima_tentativa") WHERE "locadora"."outbox"."entregue_em" is null and "locadora"."outbox"."descartado_em" is null;