import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Every rental table lives in the `locadora` Postgres schema. */
export const locadora = pgSchema('locadora');

const criadoEm = () => timestamp('criado_em', { withTimezone: true }).notNull().defaultNow();
const atualizadoEm = () =>
  timestamp('atualizado_em', { withTimezone: true }).notNull().defaultNow();
const momento = (nome: string) => timestamp(nome, { withTimezone: true });

export const usuarios = locadora.table(
  'usuarios',
  {
    id: serial('id').primaryKey(),
    nome: text('nome').notNull(),
    dataNascimento: date('data_nascimento'),
    // Null once the account is anonymised (LGPD); unique while present.
    cpf: text('cpf'),
    telefone: text('telefone'),
    categoriaHabilitacao: text('categoria_habilitacao'),
    rua: text('rua'),
    numero: text('numero'),
    bairro: text('bairro'),
    cidade: text('cidade'),
    municipio: text('municipio'),
    email: text('email').notNull(),
    // When the address was confirmed (the link e-mailed to it); null: e-mails are not sent to it.
    emailVerificadoEm: momento('email_verificado_em'),
    senhaHash: text('senha_hash'),
    papel: text('papel', { enum: ['cliente', 'funcionario', 'admin'] })
      .notNull()
      .default('cliente'),
    ativo: boolean('ativo').notNull().default(true),
    anonimizadoEm: momento('anonimizado_em'),
    criadoEm: criadoEm(),
    atualizadoEm: atualizadoEm(),
  },
  (t) => [
    uniqueIndex('usuarios_email_unico').on(sql`lower(${t.email})`),
    uniqueIndex('usuarios_cpf_unico').on(t.cpf),
    check('usuarios_papel_valido', sql`${t.papel} in ('cliente', 'funcionario', 'admin')`),
  ],
);

/** A login: the refresh token's hash, revoked at logout; access tokens name their session. */
export const sessoes = locadora.table(
  'sessoes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    usuarioId: integer('usuario_id')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull(),
    criadaEm: momento('criada_em').notNull().defaultNow(),
    expiraEm: momento('expira_em').notNull(),
    revogadaEm: momento('revogada_em'),
  },
  (t) => [
    uniqueIndex('sessoes_refresh_unico').on(t.refreshHash),
    index('sessoes_usuario').on(t.usuarioId),
  ],
);

/**
 * The login throttle's counters, one row per e-mail and per client address, shared by every
 * server process. `chave` is a SHA-256 of the kind and the value, so no e-mail or address is
 * stored in clear; `falhas` counts failed logins (and those being checked) in the window that began at
 * `janela_inicio`; past the limit the key waits until `janela_fim`.
 */
export const tentativasDeLogin = locadora.table(
  'tentativas_de_login',
  {
    chave: text('chave').primaryKey(),
    falhas: integer('falhas').notNull(),
    janelaInicio: momento('janela_inicio').notNull(),
    janelaFim: momento('janela_fim').notNull(),
  },
  (t) => [index('tentativas_de_login_fim').on(t.janelaFim)],
);

/**
 * When each account last sent itself a test notification ("Enviar Notificação"). One row per
 * account in the database every node shares, so the wait between two sends holds however many
 * API processes answer (a map in each process let a second click through on another node).
 */
export const enviosDeTeste = locadora.table('envios_de_teste', {
  idUsuario: integer('id_usuario')
    .primaryKey()
    .references(() => usuarios.id, { onDelete: 'cascade' }),
  enviadoEm: momento('enviado_em').notNull(),
});

/**
 * The links that confirm an account's e-mail: the token's SHA-256 only, the address it was
 * sent to (a link confirms that address, not one set later) and until when it works. Consumed
 * by deleting the row, so it works once; a new request replaces the account's earlier links.
 */
export const verificacoesDeEmail = locadora.table(
  'verificacoes_de_email',
  {
    tokenHash: text('token_hash').primaryKey(),
    usuarioId: integer('usuario_id')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    expiraEm: momento('expira_em').notNull(),
    criadoEm: criadoEm(),
  },
  (t) => [index('verificacoes_de_email_usuario').on(t.usuarioId)],
);

/** Pickup places. */
export const locais = locadora.table('locais', {
  id: serial('id').primaryKey(),
  codigo: text('codigo').notNull().unique(),
  nome: text('nome').notNull(),
  endereco: text('endereco').notNull(),
  bairro: text('bairro').notNull(),
  cidade: text('cidade').notNull(),
  uf: text('uf').notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
});

export const categorias = locadora.table(
  'categorias',
  {
    id: serial('id').primaryKey(),
    descricao: text('descricao').notNull(),
    valorDiariaCentavos: integer('valor_diaria_centavos').notNull(),
    emPromocao: boolean('em_promocao').notNull().default(false),
    criadoEm: criadoEm(),
  },
  (t) => [
    uniqueIndex('categorias_descricao_unica').on(sql`lower(${t.descricao})`),
    check('categorias_valor_positivo', sql`${t.valorDiariaCentavos} > 0`),
  ],
);

export const modelos = locadora.table(
  'modelos',
  {
    id: serial('id').primaryKey(),
    nome: text('nome').notNull(),
    marca: text('marca').notNull(),
    categoriaId: integer('categoria_id')
      .notNull()
      .references(() => categorias.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('modelos_nome_unico').on(sql`lower(${t.nome})`),
    index('modelos_categoria').on(t.categoriaId),
  ],
);

/** Optional extras of a reservation (none, glass protection, child seat, GPS). */
export const adicionais = locadora.table('adicionais', {
  id: serial('id').primaryKey(),
  descricao: text('descricao').notNull().unique(),
  valorCentavos: integer('valor_centavos').notNull(),
});

/** The fleet: each vehicle is one unit of its model's category. */
export const veiculos = locadora.table(
  'veiculos',
  {
    id: serial('id').primaryKey(),
    placa: text('placa').notNull().unique(),
    modeloId: integer('modelo_id')
      .notNull()
      .references(() => modelos.id, { onDelete: 'restrict' }),
    cor: text('cor').notNull(),
    quilometragem: integer('quilometragem').notNull().default(0),
    ativo: boolean('ativo').notNull().default(true),
    criadoEm: criadoEm(),
  },
  (t) => [index('veiculos_modelo').on(t.modeloId)],
);

/** Stock by model and colour (the spec's Estoques screen). */
export const estoques = locadora.table(
  'estoques',
  {
    id: serial('id').primaryKey(),
    modelo: text('modelo').notNull(),
    marca: text('marca').notNull(),
    cor: text('cor').notNull(),
    quantidade: integer('quantidade').notNull(),
    criadoEm: criadoEm(),
  },
  (t) => [
    uniqueIndex('estoques_modelo_marca_cor').on(
      sql`lower(${t.modelo})`,
      sql`lower(${t.marca})`,
      sql`lower(${t.cor})`,
    ),
    check('estoques_quantidade_nao_negativa', sql`${t.quantidade} >= 0`),
  ],
);

export const locacoes = locadora.table(
  'locacoes',
  {
    id: serial('id').primaryKey(),
    usuarioId: integer('usuario_id')
      .notNull()
      .references(() => usuarios.id, { onDelete: 'restrict' }),
    localId: integer('local_id')
      .notNull()
      .references(() => locais.id, { onDelete: 'restrict' }),
    categoriaId: integer('categoria_id')
      .notNull()
      .references(() => categorias.id, { onDelete: 'restrict' }),
    modeloId: integer('modelo_id')
      .notNull()
      .references(() => modelos.id, { onDelete: 'restrict' }),
    adicionalId: integer('adicional_id')
      .notNull()
      .references(() => adicionais.id, { onDelete: 'restrict' }),
    // Planned period, in absolute time; dates and hours are shown in Belo Horizonte's zone.
    retiradaPrevista: momento('retirada_prevista').notNull(),
    entregaPrevista: momento('entrega_prevista').notNull(),
    // Prices are fixed at booking time: later category changes do not alter a contract.
    diarias: integer('diarias').notNull(),
    valorDiariaCentavos: integer('valor_diaria_centavos').notNull(),
    valorAdicionalCentavos: integer('valor_adicional_centavos').notNull(),
    valorTotalCentavos: integer('valor_total_centavos').notNull(),
    status: text('status', { enum: ['reservada', 'retirada', 'devolvida', 'cancelada'] })
      .notNull()
      .default('reservada'),
    veiculoId: integer('veiculo_id').references(() => veiculos.id, { onDelete: 'restrict' }),
    retiradaEm: momento('retirada_em'),
    devolvidaEm: momento('devolvida_em'),
    canceladaEm: momento('cancelada_em'),
    observacao: text('observacao'),
    criadoEm: criadoEm(),
    atualizadoEm: atualizadoEm(),
  },
  (t) => [
    // Availability: reservations holding a vehicle whose period overlaps the asked one.
    index('locacoes_periodo_ativo')
      .using('gist', sql`tstzrange(${t.retiradaPrevista}, ${t.entregaPrevista}, '[)')`)
      .where(sql`${t.status} in ('reservada', 'retirada')`),
    index('locacoes_usuario_retirada').on(t.usuarioId, t.retiradaPrevista),
    index('locacoes_retirada').on(t.retiradaPrevista),
    index('locacoes_veiculo').on(t.veiculoId),
    check('locacoes_periodo_valido', sql`${t.entregaPrevista} > ${t.retiradaPrevista}`),
    check(
      'locacoes_status_valido',
      sql`${t.status} in ('reservada', 'retirada', 'devolvida', 'cancelada')`,
    ),
  ],
);

export const vistorias = locadora.table(
  'vistorias',
  {
    id: serial('id').primaryKey(),
    veiculoId: integer('veiculo_id')
      .notNull()
      .references(() => veiculos.id, { onDelete: 'restrict' }),
    locacaoId: integer('locacao_id').references(() => locacoes.id, { onDelete: 'set null' }),
    tipo: smallint('tipo').notNull(),
    realizadaEm: momento('realizada_em').notNull(),
    descricao: text('descricao').notNull(),
    observacoes: text('observacoes'),
    criaOrdemManutencao: boolean('cria_ordem_manutencao').notNull().default(false),
    quilometragem: integer('quilometragem'),
    registradaPor: integer('registrada_por').references(() => usuarios.id, {
      onDelete: 'set null',
    }),
    criadoEm: criadoEm(),
  },
  (t) => [
    index('vistorias_veiculo_data').on(t.veiculoId, t.realizadaEm.desc()),
    check('vistorias_tipo_valido', sql`${t.tipo} in (0, 1)`),
  ],
);

export const manutencoes = locadora.table(
  'manutencoes',
  {
    id: serial('id').primaryKey(),
    veiculoId: integer('veiculo_id')
      .notNull()
      .references(() => veiculos.id, { onDelete: 'restrict' }),
    vistoriaId: integer('vistoria_id').references(() => vistorias.id, { onDelete: 'set null' }),
    tipo: smallint('tipo').notNull(),
    descricao: text('descricao').notNull(),
    inicio: momento('inicio').notNull(),
    previsaoTermino: momento('previsao_termino'),
    encerradaEm: momento('encerrada_em'),
    horasOficina: numeric('horas_oficina', { precision: 8, scale: 2, mode: 'number' }),
    valorNfCentavos: integer('valor_nf_centavos'),
    criadoEm: criadoEm(),
  },
  (t) => [
    // The vehicle is blocked from the start until closed, else until the expected end, else indefinitely.
    index('manutencoes_bloqueio').using(
      'gist',
      sql`tstzrange(${t.inicio}, coalesce(${t.encerradaEm}, ${t.previsaoTermino}), '[)')`,
    ),
    index('manutencoes_veiculo').on(t.veiculoId),
    check('manutencoes_tipo_valido', sql`${t.tipo} between 0 and 5`),
  ],
);

export const infracoes = locadora.table(
  'infracoes',
  {
    id: serial('id').primaryKey(),
    veiculoId: integer('veiculo_id')
      .notNull()
      .references(() => veiculos.id, { onDelete: 'restrict' }),
    locacaoId: integer('locacao_id').references(() => locacoes.id, { onDelete: 'restrict' }),
    ocorridaEm: momento('ocorrida_em').notNull(),
    descricao: text('descricao').notNull(),
    valorCentavos: integer('valor_centavos').notNull(),
    local: text('local').notNull(),
    prazoIndicacao: date('prazo_indicacao').notNull(),
    registradaPor: integer('registrada_por').references(() => usuarios.id, {
      onDelete: 'set null',
    }),
    criadoEm: criadoEm(),
  },
  (t) => [
    index('infracoes_locacao').on(t.locacaoId),
    index('infracoes_veiculo').on(t.veiculoId, t.ocorridaEm),
  ],
);

export const avaliacoes = locadora.table(
  'avaliacoes',
  {
    id: serial('id').primaryKey(),
    usuarioId: integer('usuario_id').references(() => usuarios.id, { onDelete: 'set null' }),
    nomeExibicao: text('nome_exibicao').notNull(),
    titulo: text('titulo').notNull(),
    nota: smallint('nota').notNull(),
    email: text('email'),
    telefone: text('telefone'),
    observacao: text('observacao').notNull(),
    criadoEm: criadoEm(),
  },
  (t) => [
    index('avaliacoes_criado_em').on(t.criadoEm.desc()),
    check('avaliacoes_nota_valida', sql`${t.nota} between 1 and 5`),
  ],
);

/** What an outbox row asks of Sino: trigger a workflow, or erase an account's subscriber. */
export const ACOES_DO_OUTBOX = ['disparar', 'apagar-assinante'] as const;
export type AcaoDoOutbox = (typeof ACOES_DO_OUTBOX)[number];

/**
 * Locadora's outbox: each business event Sino must notify, written in the transaction of the
 * change that causes it and delivered afterwards by a worker (decision 018). The recipients'
 * names and e-mails are not copied here: they are read at delivery, so an account anonymised
 * meanwhile is not notified. `proxima_tentativa` is both the back-off and the lease of the
 * worker that claimed the row; `id` is the trigger's transactionId, Sino's idempotency key.
 * A deleted account's erasure in Sino goes the same way (`apagar-assinante`, decision 026).
 */
export const outbox = locadora.table(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    acao: text('acao').$type<AcaoDoOutbox>().notNull().default('disparar'),
    /** The Sino workflow to trigger (FLUXOS_LOCADORA); none for an erasure. */
    fluxo: text('fluxo'),
    /** The customer the event concerns, if any. */
    usuarioId: integer('usuario_id').references(() => usuarios.id, { onDelete: 'cascade' }),
    /** Also to every active staff account. */
    equipe: boolean('equipe').notNull().default(false),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    criadoEm: criadoEm(),
    tentativas: integer('tentativas').notNull().default(0),
    proximaTentativa: momento('proxima_tentativa').notNull().defaultNow(),
    entregueEm: momento('entregue_em'),
    /** Set when Sino refused the event for good (logged for the operator). */
    descartadoEm: momento('descartado_em'),
    ultimoErro: text('ultimo_erro'),
  },
  (t) => [
    index('outbox_pendentes')
      .on(t.proximaTentativa)
      .where(sql`${t.entregueEm} is null and ${t.descartadoEm} is null`),
    check('outbox_acao', sql`${t.acao} in ('disparar', 'apagar-assinante')`),
    // A trigger names its workflow; an erasure names the account and nothing else.
    check(
      'outbox_acao_campos',
      sql`case ${t.acao} when 'disparar' then ${t.fluxo} is not null else ${t.fluxo} is null and ${t.usuarioId} is not null end`,
    ),
  ],
);
