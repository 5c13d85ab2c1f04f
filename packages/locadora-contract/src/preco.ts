/** One day, as the spec counts it. */
export const MS_POR_DIA = 86_400_000;

/** Parses 'aaaa-mm-dd' as a calendar date (UTC midnight), so daylight saving never shifts a day. */
function diaDoCalendario(data: string): number {
  const [ano, mes, dia] = data.split('-').map(Number);
  return Date.UTC(ano ?? NaN, (mes ?? NaN) - 1, dia ?? NaN);
}

/**
 * Daily rates charged between the pickup and return dates: |return - pickup| / 86,400,000 ms,
 * as in the spec, with a minimum of one (a same-day rental is charged one day, as rental
 * companies do; the spec's rule charged nothing).
 */
export function contarDiarias(dataRetirada: string, dataEntrega: string): number {
  const dias = Math.abs(diaDoCalendario(dataEntrega) - diaDoCalendario(dataRetirada)) / MS_POR_DIA;
  return Math.max(1, Math.round(dias));
}

export interface Orcamento {
  diarias: number;
  valorDiariaCentavos: number;
  valorAdicionalCentavos: number;
  valorTotalCentavos: number;
}

/** Total = category daily value x days + the chosen extra. Money in cents, never floats. */
export function calcularOrcamento(args: {
  dataRetirada: string;
  dataEntrega: string;
  valorDiariaCentavos: number;
  valorAdicionalCentavos: number;
}): Orcamento {
  const diarias = contarDiarias(args.dataRetirada, args.dataEntrega);
  return {
    diarias,
    valorDiariaCentavos: args.valorDiariaCentavos,
    valorAdicionalCentavos: args.valorAdicionalCentavos,
    valorTotalCentavos: args.valorDiariaCentavos * diarias + args.valorAdicionalCentavos,
  };
}

export const reaisParaCentavos = (reais: number): number => Math.round(reais * 100);
export const centavosParaReais = (centavos: number): number => centavos / 100;

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
/** 1234.5 -> 'R$ 1.234,50' (with the non-breaking space Intl puts after R$). */
export const formatarReais = (reais: number): string => brl.format(reais);
