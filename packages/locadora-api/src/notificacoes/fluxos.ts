import type { SinoBody, SinoClient } from '@sino/client';

type Fluxo = SinoBody<'/v1/workflows', 'post'> & { identifier: string };

const noSino = (conteudo: string, url: string): NonNullable<Fluxo['steps']>[number] => ({
  template: { type: 'in_app', content: conteudo, cta: { type: 'redirect', data: { url } } },
});

/**
 * The notifications Locadora sends through Sino, defined here in code and kept in Sino at
 * every start (`garantirFluxos`). Their payloads are named in Portuguese, like the app.
 */
export const FLUXOS_LOCADORA: readonly Fluxo[] = [
  {
    identifier: 'reserva-confirmada',
    name: 'Reserva confirmada',
    description: 'A reserva foi registrada e o valor calculado.',
    tags: ['locacao'],
    steps: [
      noSino(
        'Sua reserva <b>{{contrato}}</b> foi confirmada: retirada em {{retirada}} na {{local}}. Total {{total}}.',
        '/locacao',
      ),
    ],
  },
  {
    identifier: 'reserva-alterada',
    name: 'Reserva alterada',
    description: 'Datas, local ou categoria da reserva mudaram.',
    tags: ['locacao'],
    steps: [
      noSino(
        'A reserva <b>{{contrato}}</b> foi alterada: retirada em {{retirada}} na {{local}}. Novo total {{total}}.',
        '/locacao',
      ),
    ],
  },
  {
    identifier: 'reserva-cancelada',
    name: 'Reserva cancelada',
    description: 'A reserva foi cancelada pelo cliente ou pela equipe.',
    tags: ['locacao'],
    steps: [noSino('A reserva <b>{{contrato}}</b> foi cancelada.', '/locacao')],
  },
  {
    identifier: 'vistoria-registrada',
    name: 'Vistoria registrada',
    description: 'Uma vistoria de saída ou de devolução foi registrada para o veículo do contrato.',
    tags: ['frota'],
    steps: [
      noSino(
        'Vistoria de {{tipo}} registrada para o veículo {{placa}} (contrato {{contrato}}).',
        '/historico',
      ),
    ],
  },
  {
    identifier: 'manutencao-aberta',
    name: 'Manutenção aberta',
    description: 'Um veículo entrou em manutenção e saiu da frota disponível.',
    tags: ['frota'],
    steps: [
      noSino(
        'O veículo {{placa}} entrou em manutenção ({{tipo}}) até {{previsao}}.',
        '/manutencao',
      ),
    ],
  },
  {
    identifier: 'multa-registrada',
    name: 'Multa registrada',
    description: 'Uma infração de trânsito foi associada ao contrato do cliente.',
    tags: ['infracoes'],
    // The customer must be able to name the driver in time: not something to switch off.
    critical: true,
    steps: [
      noSino(
        'Uma multa foi registrada no contrato <b>{{contrato}}</b>: {{descricao}}, {{valor}}. Indique o condutor até {{prazo}}.',
        '/infracoes',
      ),
    ],
  },
];

/** What `garantirFluxos` did with each workflow. */
export type ResultadoDoFluxo = { identifier: string; acao: 'criado' | 'atualizado' };

/**
 * Creates each workflow Sino does not have yet (active) and brings the existing ones up to
 * date, through Sino's server API like any customer. An existing workflow keeps its active
 * switch, which an operator may have turned off.
 */
export async function garantirFluxos(
  sino: SinoClient,
  fluxos: readonly Fluxo[] = FLUXOS_LOCADORA,
): Promise<ResultadoDoFluxo[]> {
  const resultados: ResultadoDoFluxo[] = [];
  for (const fluxo of fluxos) {
    const existente = await sino.GET('/v1/workflows/{workflowId}', {
      params: { path: { workflowId: fluxo.identifier } },
    });
    if (existente.response.status === 404) {
      const criado = await sino.POST('/v1/workflows', { body: { ...fluxo, active: true } });
      if (!criado.response.ok) throw recusa(`criar o fluxo ${fluxo.identifier}`, criado);
      resultados.push({ identifier: fluxo.identifier, acao: 'criado' });
      continue;
    }
    if (!existente.data) throw recusa(`ler o fluxo ${fluxo.identifier}`, existente);
    const { identifier, ...campos } = fluxo;
    const atualizado = await sino.PUT('/v1/workflows/{workflowId}', {
      params: { path: { workflowId: existente.data.data._id } },
      body: campos,
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
