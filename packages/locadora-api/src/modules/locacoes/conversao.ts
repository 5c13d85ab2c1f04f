import { TZDate } from '@date-fns/tz';
import { FUSO_HORARIO, OBSERVACAO_PADRAO_HISTORICO } from '@locadora/contract/dominio';
import type { HistoricoSaida, LocacaoSaida } from '@locadora/contract/locacoes';
import { formatarPlaca } from '@locadora/contract/placa';
import { centavosParaReais } from '@locadora/contract/preco';
import type { LocacaoDetalhada } from './repositorio.js';

/** 'aaaa-mm-dd' and 'hh:mm' typed in Belo Horizonte -> the absolute instant. */
export function instanteLocal(data: string, hora: string): Date {
  const [ano, mes, dia] = data.split('-').map(Number) as [number, number, number];
  const [h, min] = hora.split(':').map(Number) as [number, number];
  return new Date(new TZDate(ano, mes - 1, dia, h, min, FUSO_HORARIO).getTime());
}

const doisDigitos = (n: number): string => String(n).padStart(2, '0');

/**
 * The local (Belo Horizonte) date 'aaaa-mm-dd' and time 'hh:mm' of an instant, read from one
 * TZDate's fields: a page of 50 reservations converts 100 instants, and this is several times
 * cheaper than a time-zone-aware `format` per part.
 */
export function dataEHoraLocais(instante: Date): { data: string; hora: string } {
  const local = new TZDate(instante.getTime(), FUSO_HORARIO);
  return {
    data: `${local.getFullYear()}-${doisDigitos(local.getMonth() + 1)}-${doisDigitos(local.getDate())}`,
    hora: `${doisDigitos(local.getHours())}:${doisDigitos(local.getMinutes())}`,
  };
}

/** The local (Belo Horizonte) calendar date of an instant, 'aaaa-mm-dd'. */
export const dataLocal = (instante: Date): string => dataEHoraLocais(instante).data;

/** The local (Belo Horizonte) time of an instant, 'hh:mm'. */
export const horaLocal = (instante: Date): string => dataEHoraLocais(instante).hora;

/** The contract code shown to people: LOC-000123. */
export const codigoDaLocacao = (id: number): string => `LOC-${String(id).padStart(6, '0')}`;

const MAIOR_ID = 2_147_483_647;

/** The id behind what a person types on the location screen: '123' or 'LOC-000123'; null otherwise. */
export function idDoCodigo(texto: string): number | null {
  const partes = /^(?:LOC-?)?(\d{1,10})$/i.exec(texto.trim());
  if (!partes) return null;
  const id = Number(partes[1]);
  return id >= 1 && id <= MAIOR_ID ? id : null;
}

export function paraLocacaoSaida(l: LocacaoDetalhada): LocacaoSaida {
  const retirada = dataEHoraLocais(l.retiradaPrevista);
  const entrega = dataEHoraLocais(l.entregaPrevista);
  return {
    id_locacao: l.id,
    codigo: codigoDaLocacao(l.id),
    id_usuario: l.usuarioId,
    nome_cliente: l.nomeCliente,
    id_local: l.localId,
    local: l.nomeLocal,
    id_categoria: l.categoriaId,
    categoria: l.descricaoCategoria,
    modelo_veiculo: l.nomeModelo,
    data_retirada: retirada.data,
    hora_retirada: retirada.hora,
    data_entrega: entrega.data,
    hora_entrega: entrega.hora,
    diarias: l.diarias,
    vl_categoria: centavosParaReais(l.valorDiariaCentavos),
    id_adicional: l.adicionalId,
    adicional: l.descricaoAdicional,
    custos_ad: centavosParaReais(l.valorAdicionalCentavos),
    vl_total: centavosParaReais(l.valorTotalCentavos),
    status: l.status,
    id_veiculo: l.veiculoId,
    placa: l.placa === null ? null : formatarPlaca(l.placa),
    retirada_em: l.retiradaEm?.toISOString() ?? null,
    devolvida_em: l.devolvidaEm?.toISOString() ?? null,
    cancelada_em: l.canceladaEm?.toISOString() ?? null,
    observacao: l.observacao,
    criado_em: l.criadoEm.toISOString(),
  };
}

/** A contract as the history screen shows it (the spec's field names). */
export function paraHistorico(l: LocacaoDetalhada): HistoricoSaida {
  const veiculo =
    l.placa === null
      ? l.nomeModelo
      : `${l.modeloDoVeiculo ?? l.nomeModelo} (${formatarPlaca(l.placa)})`;
  return {
    Contrato: l.id,
    Encerramento: l.devolvidaEm ? dataLocal(l.devolvidaEm) : null,
    Status: l.status,
    Veiculo: veiculo,
    Valores: centavosParaReais(l.valorTotalCentavos),
    Observacao: l.observacao ?? OBSERVACAO_PADRAO_HISTORICO,
  };
}
