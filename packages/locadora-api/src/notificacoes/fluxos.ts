import { TAG_SOMENTE_EQUIPE } from '@locadora/contract/notificacoes';
import type { SinoBody, SinoClient } from '@sino/client';
import { escaparHtml, garantirLayout, layoutDaLocadora } from './layout.js';
import { garantirVersionados, recusa, versaoDe, type Acao } from './versionados.js';

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
  'verificacao-de-email',
] as const;
export type IdentificadorDeFluxo = (typeof IDENTIFICADORES_DOS_FLUXOS)[number];

export type Fluxo = SinoBody<'/v1/workflows', 'post'> & { identifier: IdentificadorDeFluxo };
type Passo = NonNullable<Fluxo['steps']>[number];

/** What the definitions take from the installation and from Sino. */
export interface OpcoesDosFluxos {
  /** Locadora's public address (PUBLIC_URL, no trailing slash): e-mails link into it. */
  urlPublica: string;
  /** Sino's id of Locadora's layout (`garantirLayout`), which the e-mail steps name. */
  layoutId: string;
}

const noSino = (conteudo: string, url: string): Passo => ({
  template: { type: 'in_app', content: conteudo, cta: { type: 'redirect', data: { url } } },
});

/**
 * An e-mail step in Locadora's layout. Payload values go in with `{{…}}` only (escaped by
 * Sino's Handlebars); the link is absolute, from the public URL. Sino skips the step for a
 * subscriber without an address: the outbox gives one only when it is verified.
 */
const porEmail = (
  o: OpcoesDosFluxos,
  assunto: string,
  corpo: string,
  link: { caminho: string; texto: string },
): Passo => ({
  template: {
    type: 'email',
    subject: assunto,
    layoutId: o.layoutId,
    content: `<p>Olá, {{subscriber.firstName}}!</p>
${corpo}
<p><a href="${escaparHtml(o.urlPublica)}${link.caminho}" style="display:inline-block;background:#0a4fd6;color:#ffffff;padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600;">${link.texto}</a></p>`,
  },
});

/** The reservation's lines in its e-mails. */
const DETALHES_DA_RESERVA = `<ul>
<li>Retirada: {{retirada}}</li>
<li>Local: {{local}}</li>
<li>Devolução: {{entrega}}</li>
<li>Total: {{total}}</li>
</ul>`;

/** The contract's page (history) when the event names one, else `semContrato` (staff). */
const paginaDoContrato = (semContrato: string) =>
  `{{#if id}}/historico?contrato={{id}}{{else}}${semContrato}{{/if}}`;

/**
 * The notifications Locadora sends through Sino, defined here in code and written to Sino
 * when their definition changes (`garantirFluxos`). They are triggered from the outbox (`entregador.ts`) with the
 * payloads of `eventos.ts`, named in Portuguese like the app; each opens the page of what it
 * tells (the reservation's contract, the fines, the reviews).
 */
const definicoes = (o: OpcoesDosFluxos) =>
  ({
    'reserva-confirmada': {
      name: 'Reserva confirmada',
      description: 'A reserva foi registrada e o valor calculado.',
      tags: ['locacao'],
      steps: [
        noSino(
          'Sua reserva <b>{{contrato}}</b> foi confirmada: retirada em {{retirada}} na {{local}}, devolução em {{entrega}}. Total {{total}}.',
          '/historico?contrato={{id}}',
        ),
        porEmail(
          o,
          'Reserva {{contrato}} confirmada',
          `<p>Sua reserva <strong>{{contrato}}</strong> foi confirmada.</p>
${DETALHES_DA_RESERVA}`,
          { caminho: '/historico?contrato={{id}}', texto: 'Ver a reserva' },
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
        porEmail(
          o,
          'Reserva {{contrato}} alterada',
          `<p>Sua reserva <strong>{{contrato}}</strong> foi alterada. Confira os novos dados:</p>
${DETALHES_DA_RESERVA}`,
          { caminho: '/historico?contrato={{id}}', texto: 'Ver a reserva' },
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
        porEmail(
          o,
          'Reserva {{contrato}} cancelada',
          '<p>Sua reserva <strong>{{contrato}}</strong>, com retirada em {{retirada}} na {{local}}, foi cancelada.</p>',
          { caminho: '/historico?contrato={{id}}', texto: 'Ver o histórico' },
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
        porEmail(
          o,
          'Multa registrada no contrato {{contrato}}',
          `<p>Uma multa foi registrada no contrato <strong>{{contrato}}</strong> (veículo {{placa}}).</p>
<ul>
<li>Infração: {{descricao}}</li>
<li>Valor: {{valor}}</li>
<li>Prazo para indicar o condutor: {{prazo}}</li>
</ul>
<p>Indique o condutor dentro do prazo para evitar a transferência dos pontos.</p>`,
          { caminho: '/infracoes?contrato={{id}}', texto: 'Ver a multa' },
        ),
      ],
    },
    'notificacao-de-teste': {
      name: 'Notificação de teste',
      description:
        'Enviada pela própria pessoa em /notificacoes, para conferir que o sino funciona.',
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
    'verificacao-de-email': {
      name: 'Verificação de e-mail',
      description:
        'O link que confirma o e-mail de uma conta, enviado ao endereço ainda não confirmado (no cadastro e a pedido).',
      // Not a preference: without it the account never gets its e-mails.
      tags: ['conta'],
      critical: true,
      steps: [
        porEmail(
          o,
          'Confirme seu e-mail na Locadora',
          '<p>Para receber por e-mail os avisos das suas reservas e multas, confirme que este endereço é seu. O link vale por {{validade}} e só pode ser usado uma vez.</p><p>Se você não criou uma conta na Locadora, ignore esta mensagem.</p>',
          { caminho: '/verificar-email?token={{token}}', texto: 'Confirmar e-mail' },
        ),
      ],
    },
  }) satisfies Record<IdentificadorDeFluxo, Omit<Fluxo, 'identifier'>>;

/** The definitions as Sino's API takes them, in the order of the list. */
export function fluxosDaLocadora(o: OpcoesDosFluxos): Fluxo[] {
  const porId = definicoes(o);
  return IDENTIFICADORES_DOS_FLUXOS.map((identifier) => ({ identifier, ...porId[identifier] }));
}

/** What `garantirFluxos` did with each workflow. */
export type ResultadoDoFluxo = { identifier: IdentificadorDeFluxo; acao: Acao };

/**
 * Where, in a workflow's `data` in Sino, Locadora keeps the version of the definition it wrote:
 * the workflow is written again only when the code's definition has another version.
 */
export const CHAVE_DA_VERSAO = 'versaoDaLocadora';

/** The version of a definition: a digest of everything Locadora writes to Sino. */
export const versaoDoFluxo = (fluxo: Fluxo): string => versaoDe(fluxo);

type Existente = { id: string; data: Record<string, unknown> };

/**
 * Creates each workflow Sino does not have yet (active), and writes an existing one only when
 * its definition here changed since Locadora last wrote it (the version kept in the workflow's
 * `data`), through Sino's server API like any customer (`versionados.ts`). An existing
 * workflow always keeps its active switch. The environment's workflows are listed once (a
 * page of 100 at a time): a start costs the list, plus one request per workflow to write.
 * Several processes starting together call this under a lock (apps/server), so that only one
 * of them creates.
 */
export async function garantirFluxos(
  sino: SinoClient,
  fluxos: readonly Fluxo[],
): Promise<ResultadoDoFluxo[]> {
  const resultados = await garantirVersionados<Fluxo, Existente>(fluxos, {
    chave: (f) => f.identifier,
    async existentes() {
      const porChave = new Map<string, Existente>();
      for (let page = 0; ; page++) {
        const lista = await sino.GET('/v1/workflows', { params: { query: { page, limit: 100 } } });
        if (!lista.data) throw recusa('ler os fluxos da Locadora', lista);
        for (const w of lista.data.data)
          for (const gatilho of w.triggers)
            porChave.set(gatilho.identifier, { id: w._id, data: w.data ?? {} });
        if (lista.data.data.length < 100) break;
      }
      return porChave;
    },
    versaoDoExistente: (e) => {
      const v = e.data[CHAVE_DA_VERSAO];
      return typeof v === 'string' ? v : undefined;
    },
    idDoExistente: (e) => e.id,
    async criar(fluxo, versao) {
      const criado = await sino.POST('/v1/workflows', {
        body: { ...fluxo, active: true, data: { [CHAVE_DA_VERSAO]: versao } },
      });
      if (!criado.data) throw recusa(`criar o fluxo ${fluxo.identifier}`, criado);
      return criado.data.data._id;
    },
    async atualizar(existente, fluxo, versao) {
      const { identifier, ...campos } = fluxo;
      const atualizado = await sino.PUT('/v1/workflows/{workflowId}', {
        params: { path: { workflowId: existente.id } },
        body: { ...campos, data: { ...existente.data, [CHAVE_DA_VERSAO]: versao } },
      });
      if (!atualizado.response.ok) throw recusa(`atualizar o fluxo ${identifier}`, atualizado);
      return existente.id;
    },
  });
  return resultados.map((r) => ({ identifier: r.chave as IdentificadorDeFluxo, acao: r.acao }));
}

/** What `garantirNotificacoes` did: the layout, then each workflow. */
export interface ResultadoDasNotificacoes {
  layout: Acao;
  fluxos: ResultadoDoFluxo[];
}

/**
 * Everything Locadora keeps in Sino: its e-mail layout first (the e-mail steps name its id),
 * then its workflows, each the versioned way. The public URL is baked into both, so a change
 * of PUBLIC_URL rewrites them once, at the next start.
 */
export async function garantirNotificacoes(
  sino: SinoClient,
  opcoes: { urlPublica: string },
): Promise<ResultadoDasNotificacoes> {
  const layout = await garantirLayout(sino, layoutDaLocadora(opcoes.urlPublica));
  const fluxos = await garantirFluxos(
    sino,
    fluxosDaLocadora({ urlPublica: opcoes.urlPublica, layoutId: layout.id }),
  );
  return { layout: layout.acao, fluxos };
}
