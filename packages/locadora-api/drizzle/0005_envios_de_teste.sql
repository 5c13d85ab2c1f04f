CREATE TABLE "locadora"."envios_de_teste" (
	"id_usuario" integer PRIMARY KEY NOT NULL,
	"enviado_em" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locadora"."envios_de_teste" ADD CONSTRAINT "envios_de_teste_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "locadora"."usuarios"("id") ON DELETE cascade ON UPDATE no action;