CREATE SCHEMA IF NOT EXISTS "locadora";
--> statement-breakpoint
CREATE TABLE "locadora"."adicionais" (
	"id" serial PRIMARY KEY NOT NULL,
	"descricao" text NOT NULL,
	"valor_centavos" integer NOT NULL,
	CONSTRAINT "adicionais_descricao_unique" UNIQUE("descricao")
);
--> statement-breakpoint
CREATE TABLE "locadora"."avaliacoes" (
	"id" serial PRIMARY KEY NOT NULL,
	"usuario_id" integer,
	"nome_exibicao" text NOT NULL,
	"titulo" text NOT NULL,
	"nota" smallint NOT NULL,
	"email" text,
	"telefone" text,
	"observacao" text NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "avaliacoes_nota_valida" CHECK ("locadora"."avaliacoes"."nota" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "locadora"."categorias" (
	"id" serial PRIMARY KEY NOT NULL,
	"descricao" text NOT NULL,
	"valor_diaria_centavos" integer NOT NULL,
	"em_promocao" boolean DEFAULT false NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categorias_valor_positivo" CHECK ("locadora"."categorias"."valor_diaria_centavos" > 0)
);
--> statement-breakpoint
CREATE TABLE "locadora"."estoques" (
	"id" serial PRIMARY KEY NOT NULL,
	"modelo" text NOT NULL,
	"marca" text NOT NULL,
	"cor" text NOT NULL,
	"quantidade" integer NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "estoques_quantidade_nao_negativa" CHECK ("locadora"."estoques"."quantidade" >= 0)
);
--> statement-breakpoint
CREATE TABLE "locadora"."infracoes" (
	"id" serial PRIMARY KEY NOT NULL,
	"veiculo_id" integer NOT NULL,
	"locacao_id" integer,
	"ocorrida_em" timestamp with time zone NOT NULL,
	"descricao" text NOT NULL,
	"valor_centavos" integer NOT NULL,
	"local" text NOT NULL,
	"prazo_indicacao" date NOT NULL,
	"registrada_por" integer,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locadora"."locacoes" (
	"id" serial PRIMARY KEY NOT NULL,
	"usuario_id" integer NOT NULL,
	"local_id" integer NOT NULL,
	"categoria_id" integer NOT NULL,
	"modelo_id" integer NOT NULL,
	"adicional_id" integer NOT NULL,
	"retirada_prevista" timestamp with time zone NOT NULL,
	"entrega_prevista" timestamp with time zone NOT NULL,
	"diarias" integer NOT NULL,
	"valor_diaria_centavos" integer NOT NULL,
	"valor_adicional_centavos" integer NOT NULL,
	"valor_total_centavos" integer NOT NULL,
	"status" text DEFAULT 'reservada' NOT NULL,
	"veiculo_id" integer,
	"retirada_em" timestamp with time zone,
	"devolvida_em" timestamp with time zone,
	"cancelada_em" timestamp with time zone,
	"observacao" text,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	"atualizado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "locacoes_periodo_valido" CHECK ("locadora"."locacoes"."entrega_prevista" > "locadora"."locacoes"."retirada_prevista"),
	CONSTRAINT "locacoes_status_valido" CHECK ("locadora"."locacoes"."status" in ('reservada', 'retirada', 'devolvida', 'cancelada'))
);
--> statement-breakpoint
CREATE TABLE "locadora"."locais" (
	"id" serial PRIMARY KEY NOT NULL,
	"codigo" text NOT NULL,
	"nome" text NOT NULL,
	"endereco" text NOT NULL,
	"bairro" text NOT NULL,
	"cidade" text NOT NULL,
	"uf" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	CONSTRAINT "locais_codigo_unique" UNIQUE("codigo")
);
--> statement-breakpoint
CREATE TABLE "locadora"."manutencoes" (
	"id" serial PRIMARY KEY NOT NULL,
	"veiculo_id" integer NOT NULL,
	"vistoria_id" integer,
	"tipo" smallint NOT NULL,
	"descricao" text NOT NULL,
	"inicio" timestamp with time zone NOT NULL,
	"previsao_termino" timestamp with time zone,
	"encerrada_em" timestamp with time zone,
	"horas_oficina" numeric(8, 2),
	"valor_nf_centavos" integer,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "manutencoes_tipo_valido" CHECK ("locadora"."manutencoes"."tipo" between 0 and 5)
);
--> statement-breakpoint
CREATE TABLE "locadora"."modelos" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"marca" text NOT NULL,
	"categoria_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locadora"."sessoes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"usuario_id" integer NOT NULL,
	"refresh_hash" text NOT NULL,
	"criada_em" timestamp with time zone DEFAULT now() NOT NULL,
	"expira_em" timestamp with time zone NOT NULL,
	"revogada_em" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "locadora"."usuarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"data_nascimento" date,
	"cpf" text,
	"telefone" text,
	"categoria_habilitacao" text,
	"rua" text,
	"numero" text,
	"bairro" text,
	"cidade" text,
	"municipio" text,
	"email" text NOT NULL,
	"senha_hash" text,
	"papel" text DEFAULT 'cliente' NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"anonimizado_em" timestamp with time zone,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	"atualizado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usuarios_papel_valido" CHECK ("locadora"."usuarios"."papel" in ('cliente', 'funcionario', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "locadora"."veiculos" (
	"id" serial PRIMARY KEY NOT NULL,
	"placa" text NOT NULL,
	"modelo_id" integer NOT NULL,
	"cor" text NOT NULL,
	"quilometragem" integer DEFAULT 0 NOT NULL,
	"ativo" boolean DEFAULT true NOT NULL,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "veiculos_placa_unique" UNIQUE("placa")
);
--> statement-breakpoint
CREATE TABLE "locadora"."vistorias" (
	"id" serial PRIMARY KEY NOT NULL,
	"veiculo_id" integer NOT NULL,
	"locacao_id" integer,
	"tipo" smallint NOT NULL,
	"realizada_em" timestamp with time zone NOT NULL,
	"descricao" text NOT NULL,
	"observacoes" text,
	"cria_ordem_manutencao" boolean DEFAULT false NOT NULL,
	"quilometragem" integer,
	"registrada_por" integer,
	"criado_em" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vistorias_tipo_valido" CHECK ("locadora"."vistorias"."tipo" in (0, 1))
);
--> statement-breakpoint
ALTER TABLE "locadora"."avaliacoes" ADD CONSTRAINT "avaliacoes_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "locadora"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."infracoes" ADD CONSTRAINT "infracoes_veiculo_id_veiculos_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "locadora"."veiculos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."infracoes" ADD CONSTRAINT "infracoes_locacao_id_locacoes_id_fk" FOREIGN KEY ("locacao_id") REFERENCES "locadora"."locacoes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."infracoes" ADD CONSTRAINT "infracoes_registrada_por_usuarios_id_fk" FOREIGN KEY ("registrada_por") REFERENCES "locadora"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."locacoes" ADD CONSTRAINT "locacoes_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "locadora"."usuarios"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."locacoes" ADD CONSTRAINT "locacoes_local_id_locais_id_fk" FOREIGN KEY ("local_id") REFERENCES "locadora"."locais"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."locacoes" ADD CONSTRAINT "locacoes_categoria_id_categorias_id_fk" FOREIGN KEY ("categoria_id") REFERENCES "locadora"."categorias"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."locacoes" ADD CONSTRAINT "locacoes_modelo_id_modelos_id_fk" FOREIGN KEY ("modelo_id") REFERENCES "locadora"."modelos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."locacoes" ADD CONSTRAINT "locacoes_adicional_id_adicionais_id_fk" FOREIGN KEY ("adicional_id") REFERENCES "locadora"."adicionais"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."locacoes" ADD CONSTRAINT "locacoes_veiculo_id_veiculos_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "locadora"."veiculos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."manutencoes" ADD CONSTRAINT "manutencoes_veiculo_id_veiculos_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "locadora"."veiculos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."manutencoes" ADD CONSTRAINT "manutencoes_vistoria_id_vistorias_id_fk" FOREIGN KEY ("vistoria_id") REFERENCES "locadora"."vistorias"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."modelos" ADD CONSTRAINT "modelos_categoria_id_categorias_id_fk" FOREIGN KEY ("categoria_id") REFERENCES "locadora"."categorias"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."sessoes" ADD CONSTRAINT "sessoes_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "locadora"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."veiculos" ADD CONSTRAINT "veiculos_modelo_id_modelos_id_fk" FOREIGN KEY ("modelo_id") REFERENCES "locadora"."modelos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."vistorias" ADD CONSTRAINT "vistorias_veiculo_id_veiculos_id_fk" FOREIGN KEY ("veiculo_id") REFERENCES "locadora"."veiculos"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."vistorias" ADD CONSTRAINT "vistorias_locacao_id_locacoes_id_fk" FOREIGN KEY ("locacao_id") REFERENCES "locadora"."locacoes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locadora"."vistorias" ADD CONSTRAINT "vistorias_registrada_por_usuarios_id_fk" FOREIGN KEY ("registrada_por") REFERENCES "locadora"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "avaliacoes_criado_em" ON "locadora"."avaliacoes" USING btree ("criado_em" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "categorias_descricao_unica" ON "locadora"."categorias" USING btree (lower("descricao"));--> statement-breakpoint
CREATE UNIQUE INDEX "estoques_modelo_marca_cor" ON "locadora"."estoques" USING btree (lower("modelo"),lower("marca"),lower("cor"));--> statement-breakpoint
CREATE INDEX "infracoes_locacao" ON "locadora"."infracoes" USING btree ("locacao_id");--> statement-breakpoint
CREATE INDEX "infracoes_veiculo" ON "locadora"."infracoes" USING btree ("veiculo_id","ocorrida_em");--> statement-breakpoint
CREATE INDEX "locacoes_periodo_ativo" ON "locadora"."locacoes" USING gist (tstzrange("retirada_prevista", "entrega_prevista", '[)')) WHERE "locadora"."locacoes"."status" in ('reservada', 'retirada');--> statement-breakpoint
CREATE INDEX "locacoes_usuario_retirada" ON "locadora"."locacoes" USING btree ("usuario_id","retirada_prevista");--> statement-breakpoint
CREATE INDEX "locacoes_retirada" ON "locadora"."locacoes" USING btree ("retirada_prevista");--> statement-breakpoint
CREATE INDEX "locacoes_veiculo" ON "locadora"."locacoes" USING btree ("veiculo_id");--> statement-breakpoint
CREATE INDEX "manutencoes_bloqueio" ON "locadora"."manutencoes" USING gist (tstzrange("inicio", coalesce("encerrada_em", "previsao_termino"), '[)'));--> statement-breakpoint
CREATE INDEX "manutencoes_veiculo" ON "locadora"."manutencoes" USING btree ("veiculo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "modelos_nome_unico" ON "locadora"."modelos" USING btree (lower("nome"));--> statement-breakpoint
CREATE INDEX "modelos_categoria" ON "locadora"."modelos" USING btree ("categoria_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessoes_refresh_unico" ON "locadora"."sessoes" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "sessoes_usuario" ON "locadora"."sessoes" USING btree ("usuario_id");--> statement-breakpoint
CREATE UNIQUE INDEX "usuarios_email_unico" ON "locadora"."usuarios" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "usuarios_cpf_unico" ON "locadora"."usuarios" USING btree ("cpf");--> statement-breakpoint
CREATE INDEX "veiculos_modelo" ON "locadora"."veiculos" USING btree ("modelo_id");--> statement-breakpoint
CREATE INDEX "vistorias_veiculo_data" ON "locadora"."vistorias" USING btree ("veiculo_id","realizada_em" DESC NULLS LAST);