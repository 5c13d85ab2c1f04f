import { FUSO_HORARIO, TIPOS_MANUTENCAO, TIPOS_VISTORIA } from '@locadora/contract/dominio';
import { formatarPlaca } from '@locadora/contract/placa';
import { centavosParaReais, formatarReais } from '@locadora/contract/preco';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { codigoDaLocacao } from '../modules/locacoes/conversao.js';
import type { NovoEvento } from './repositorio-outbox.js';
import type { IdentificadorDeFluxo } from './fluxos.js';

/**
 * The events Locadora notifies, as the services write them to the outbox. Payloads carry what
 * the Portuguese templates show (already formatted, pt-BR) and `id`, the contract the
 * notification opens; never an e-mail, CPF or phone (the recipients are read at delivery).
 */

const dataHora = (instante: Date): string =>
  format(new TZDate(instante.getTime(), FUSO_HORARIO), "dd/MM/yyyy 'às' HH:mm");
const data = (instante: Date): string =>
  format(new TZDate(instante.getTime(), FUSO_HORARIO), 'dd/MM/yyyy');
const reais = (centavos: number): string => formatarReais(centavosParaReais(centavos));

export type EventoDeReserva = Extract<IdentificadorDeFluxo, `reserva-${string}`>;

/** A reservation booked, changed or cancelled: to its customer. */
export function eventoDeReserva(
  fluxo: EventoDeReserva,
  l: {
    id: number;
    usuarioId: number;
    nomeLocal: string;
    retiradaPrevista: Date;
    entregaPrevista: Date;
    valorTotalCentavos: number;
  },
): NovoEvento {
  return {
    fluxo,
    usuarioId: l.usuarioId,
    payload: {
      id: l.id,
      contrato: codigoDaLocacao(l.id),
      retirada: dataHora(l.retiradaPrevista),
      entrega: dataHora(l.entregaPrevista),
      local: l.nomeLocal,
      total: reais(l.valorTotalCentavos),
    },
  };
}

/** An inspection registered: to staff and to the customer of the contract it names. */
export function eventoDeVistoria(
  v: { id: number; tipo: number; placa: string; locacaoId: number | null },
  titular: number | null,
): NovoEvento {
  return {
    fluxo: 'vistoria-registrada',
    usuarioId: titular,
    equipe: true,
    payload: {
      vistoria: v.id,
      id: v.locacaoId,
      contrato: v.locacaoId === null ? 'sem contrato' : codigoDaLocacao(v.locacaoId),
      tipo: TIPOS_VISTORIA[v.tipo as keyof typeof TIPOS_VISTORIA] ?? 'Vistoria',
      placa: formatarPlaca(v.placa),
    },
  };
}

/** A maintenance order opened: to staff and to the customer whose contract it concerns. */
export function eventoDeManutencao(
  m: { id: number; tipo: number; placa: string; previsaoTermino: Date | null },
  contrato: { id: number; usuarioId: number } | null,
): NovoEvento {
  return {
    fluxo: 'manutencao-aberta',
    usuarioId: contrato?.usuarioId ?? null,
    equipe: true,
    payload: {
      manutencao: m.id,
      id: contrato?.id ?? null,
      contrato: contrato ? codigoDaLocacao(contrato.id) : 'sem contrato',
      tipo: TIPOS_MANUTENCAO[m.tipo as keyof typeof TIPOS_MANUTENCAO] ?? 'manutenção',
      placa: formatarPlaca(m.placa),
      previsao: m.previsaoTermino ? data(m.previsaoTermino) : 'sem previsão',
    },
  };
}

/** A traffic fine matched to a contract: to its customer (critical workflow). */
export function eventoDeMulta(
  i: {
    id: number;
    locacaoId: number;
    descricao: string;
    valorCentavos: number;
    prazoIndicacao: string;
    placa: string;
  },
  titular: number,
): NovoEvento {
  return {
    fluxo: 'multa-registrada',
    usuarioId: titular,
    payload: {
      infracao: i.id,
      id: i.locacaoId,
      contrato: codigoDaLocacao(i.locacaoId),
      descricao: i.descricao,
      valor: reais(i.valorCentavos),
      placa: formatarPlaca(i.placa),
      prazo: i.prazoIndicacao.split('-').reverse().join('/'),
    },
  };
}

/** A review published: to staff. Who wrote it stays out (the outbox keeps its rows a while). */
export function eventoDeAvaliacao(a: { id: number; titulo: string; nota: number }): NovoEvento {
  return {
    fluxo: 'avaliacao-recebida',
    equipe: true,
    payload: { avaliacao: a.id, titulo: a.titulo, nota: a.nota },
  };
}
