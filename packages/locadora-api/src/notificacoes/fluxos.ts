import { createHash } from 'node:crypto';
import { TAG_SOMENTE_EQUIPE } from '@locadora/contract/notificacoes';
import type { SinoBody, SinoClient } from '@sino/client';

/**
 * Every workflow Locadora triggers, by its identifier in Sino: the one list the events, the
 * outbox and the definitions below are typed from, so an event of a workflow not listed here
 * (or one listed without a definition) does not compile.
 */
export const IDENTIFICADORES_DOS_FLUXOS = [
  'reserva-confirmada',
  'reserva-alterada',
  'reserva-cancelada',
  'vistoria-registrada',
  'manutencao-aberta',
  'multa-registrada',
  'notificacao-de-teste',
  'avaliacao-recebida',
] as const;
export type IdentificadorDeFluxo = (typeof IDENTIFICADORES_DOS_FLUXOS)[number];

type Fluxo = SinoBody<'/v1/workflows', 'post'> & { identifier: IdentificadorDeFluxo };

const noSino = (conteudo: string, url: string): NonNullable<Fluxo['steps']>[number] => ({
  template: { type: 'in_app', content: conteudo, cta: { type: 'redirect', data: { url } } },
});

/** The contract's page (history) when the event names one, else `semContrato` (staff). */
const paginaDoContrato = (semContrato: string) =>
  `{{#if id}}/historico?contrato={{id}}{{else}}${semContrato}{{/if}}`;

/**
 * The notifications Locadora sends through Sino, defined here in code and written to Sino
 * when their definition changes (`garantirFluxos`). They are triggered from the outbox (`entregador.ts`) with the
 * payloads of `eventos.ts`, named in Portuguese like the app; each opens the page of what it
 * tells (the reservation's contract, the fines, the reviews).
 */
const DEFINICOES = {
  'reserva-confirmada': {
    name: 'Reserva confirmada',
    description: 'A reserva foi registrada e o valor calculado.',
    tags: ['locacao'],
    steps: [
      noSino(
        'Sua reserva <b>{{contrato}}</b> foi confirmada: retirada em {{retirada}} na {{local}}, devolução em {{entrega}}. Total {{total}}.',
        '/historico?contrato={{id}}',
      ),
    ],
  },
  'reserva-alterada': {
    name: 'Reserva alterada',
    description: 'Datas, local ou categoria da reserva mudaram.',
    tags: ['locacao'],
    steps: [
      noSino(
        'A reserva <b>{{contrato}}</b> foi alterada: retirada em {{retirada}} na {{local}}, devolução em {{entrega}}. Novo total {{total}}.',
        '/historico?contrato={{id}}',
      ),
    ],
  },
  'reserva-cancelada': {
    name: 'Reserva cancelada',
    description: 'A reserva foi cancelada pelo cliente ou pela equipe.',
    tags: ['locacao'],
    steps: [
      noSino(
        'A reserva <b>{{contrato}}</b> (retirada em {{retirada}}) foi cancelada.',
        '/historico?contrato={{id}}',
      ),
    ],
  },
  'vistoria-registrada': {
    name: 'Vistoria registrada',
    description:
      'Uma vistoria de saída ou de devolução foi registrada; avisa a equipe e o cliente do contrato.',
    tags: ['frota'],
    steps: [
      noSino(
        '{{tipo}}: vistoria registrada para o veículo {{placa}} (contrato {{contrato}}).',
        paginaDoContrato('/vistoria2'),
      ),
    ],
  },
  'manutencao-aberta': {
    name: 'Manutenção aberta',
    description:
      'Um veículo entrou em manutenção e saiu da frota disponível; avisa a equipe e o cliente do contrato.',
    tags: ['frota'],
    steps: [
      noSino(
        'O veículo {{placa}} entrou em manutenção ({{tipo}}), previsão de término: {{previsao}}. Contrato {{contrato}}.',
        paginaDoContrato('/manutencao'),
      ),
    ],
  },
  'multa-registrada': {
    name: 'Multa registrada',
    description: 'Uma infração de trânsito foi associada ao contrato do cliente.',
    tags: ['infracoes'],
    // The customer must be able to name the driver in time: not something to switch off.
    critical: true,
    steps: [
      noSino(
        'Uma multa foi registrada no contrato <b>{{contrato}}</b> (veículo {{placa}}): {{descricao}}, {{valor}}. Indique o condutor até {{prazo}}.',
        '/infracoes?contrato={{id}}',
      ),
    ],
  },
  'notificacao-de-teste': {
    name: 'Notificação de teste',
    description: 'Enviada pela própria pessoa em /notificacoes, para conferir que o sino funciona.',
    tags: ['teste'],
    steps: [
      noSino(
        'Olá, {{nome}}! Esta é uma notificação de teste: o seu sino está funcionando.',
        '/notificacoes',
      ),
    ],
  },
  'avaliacao-recebida': {
    name: 'Avaliação recebida',
    description: 'Um cliente publicou uma avaliação; avisa a equipe.',
    // Only staff receive it: a customer's bell leaves it out of the preferences.
    tags: ['avaliacoes', TAG_SOMENTE_EQUIPE],
    steps: [
      noSino('Nova avaliação: <b>{{titulo}}</b>, nota {{nota}} de 5.', '/visualizarAvaliacao'),
    ],
  },
} satisfies Record<IdentificadorDeFluxo, Omit<Fluxo, 'identifier'>>;

/** The definitions as Sino's API takes them, in the order of the list. */
export const FLUXOS_LOCADORA: readonly Fluxo[] = IDENTIFICADORES_DOS_FLUXOS.map((identifier) => ({
  identifier,
  ...DEFINICOES[identifier],
}));

/** What `garantirFluxos` did with each workflow. */
export type ResultadoDoFluxo = {
  identifier: IdentificadorDeFluxo;
  acao: 'criado' | 'atualizado' | 'inalterado';
};

/**
 * Where, in a workflow's `data` in Sino, Locadora keeps the version of the definition it wrote:
 * the workflow is written again only when the code's definition has another version.
 */
export const CHAVE_DA_VERSAO = 'versaoDaLocadora';

/** The version of a definition: a digest of everything Locadora writes to Sino. */
export function versaoDoFluxo(fluxo: Fluxo): string {
  return createHash('sha256').update(JSON.stringify(fluxo)).digest('hex').slice(0, 16);
}

/**
 * Creates each workflow Sino does not have yet (active), and writes an existing one only when
 * its definition here changed since Locadora last wrote it (the version kept in the workflow's
 * `data`), through Sino's server API like any customer. So a restart writes nothing, and an
 * edit an operator made in Sino stays until Locadora's own definition changes; an existing
 * workflow always keeps its active switch. The environment's workflows are listed once (a
 * page of 100 at a time): a start costs the list, plus one request per workflow to write.
 * Several processes starting together call this under a lock (apps/server), so that only one
 * of them creates.
 */
export async function garantirFluxos(
  sino: SinoClient,
  fluxos: readonly Fluxo[] = FLUXOS_LOCADORA,
): Promise<ResultadoDoFluxo[]> {
  const existentes = new Map<string, { id: string; data: Record<string, unknown> }>();
  for (let page = 0; ; page++) {
    const lista = await sino.GET('/v1/workflows', { params: { query: { page, limit: 100 } } });
    if (!lista.data) throw recusa('ler os fluxos da Locadora', lista);
    for (const w of lista.data.data)
      for (const gatilho of w.triggers)
        existentes.set(gatilho.identifier, { id: w._id, data: w.data ?? {} });
    if (lista.data.data.length < 100) break;
  }
  const resultados: ResultadoDoFluxo[] = [];
  for (const fluxo of fluxos) {
    const versao = versaoDoFluxo(fluxo);
    const existente = existentes.get(fluxo.identifier);
    if (existente === undefined) {
      const criado = await sino.POST('/v1/workflows', {
        body: { ...fluxo, active: true, data: { [CHAVE_DA_VERSAO]: versao } },
      });
      if (!criado.response.ok) throw recusa(`criar o fluxo ${fluxo.identifier}`, criado);
      resultados.push({ identifier: fluxo.identifier, acao: 'criado' });
      continue;
    }
    if (existente.data[CHAVE_DA_VERSAO] === versao) {
      resultados.push({ identifier: fluxo.identifier, acao: 'inalterado' });
      continue;
    }
    const { identifier, ...campos } = fluxo;
    const atualizado = await sino.PUT('/v1/workflows/{workflowId}', {
      params: { path: { workflowId: existente.id } },
      body: { ...campos, data: { ...existente.data, [CHAVE_DA_VERSAO]: versao } },
    });
    if (!atualizado.response.ok) throw recusa(`atualizar o fluxo ${identifier}`, atualizado);
    resultados.push({ identifier, acao: 'atualizado' });
  }
  return resultados;
}

/** The error to raise when Sino refuses: what was attempted, the status and Sino's message. */
function recusa(acao: string, resultado: { response: Response; error?: unknown }): Error {
  const detalhe = resultado.error === undefined ? '' : ` ${JSON.stringify(resultado.error)}`;
  return new Error(`Sino não deixou ${acao}: ${resultado.response.status}${detalhe}`);
}
