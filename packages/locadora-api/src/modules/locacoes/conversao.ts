import { TZDate, tzOffset } from '@date-fns/tz';
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

const MS_POR_DIA = 86_400_000;
const deslocamentoPorDia = new Map<number, number>();

/**
 * The zone's UTC offset (ms) at an instant. Asking Intl for it costs microseconds, and a page of
 * 50 reservations asks 100 times, so the offset is kept per UTC day when it is the same at both
 * ends of the day (every day but the few with a rule change, which are asked each time).
 */
function deslocamentoMs(ms: number): number {
  const dia = Math.floor(ms / MS_POR_DIA);
  const guardado = deslocamentoPorDia.get(dia);
  if (guardado !== undefined) return guardado;
  const inicio = tzOffset(FUSO_HORARIO, new Date(dia * MS_POR_DIA)) * 60_000;
  const fim = tzOffset(FUSO_HORARIO, new Date((dia + 1) * MS_POR_DIA - 1)) * 60_000;
  if (inicio !== fim) return tzOffset(FUSO_HORARIO, new Date(ms)) * 60_000;
  // Bounded: a few thousand days cover years of reservations.
  if (deslocamentoPorDia.size >= 20_000) deslocamentoPorDia.clear();
  deslocamentoPorDia.set(dia, inicio);
  return inicio;
}

/** The local (Belo Horizonte) date 'aaaa-mm-dd' and time 'hh:mm' of an instant. */
export function dataEHoraLocais(instante: Date): { data: string; hora: string } {
  const ms = instante.getTime();
  // The wall-clock time, read with the UTC getters.
  const local = new Date(ms + deslocamentoMs(ms));
  return {
    data: `${local.getUTCFullYear()}-${doisDigitos(local.getUTCMonth() + 1)}-${doisDigitos(local.getUTCDate())}`,
    hora: `${doisDigitos(local.getUTCHours())}:${doisDigitos(local.getUTCMinutes())}`,
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
