/**
 * What a person types as an amount in reais -> the decimal the API reads: '89,90', '1.234,56',
 * 'R$ 89,90', '1.500' (thousands) and '89.9' are all understood. Anything else is passed on
 * as typed, for the schema to reject with its message.
 */
export function normalizarReais(texto: string): string {
  const limpo = texto.replace(/R\$/i, '').replace(/[\s\u00a0]/g, '');
  if (limpo.includes(',')) return limpo.replace(/\./g, '').replace(',', '.');
  if (/^\d{1,3}(\.\d{3})+$/.test(limpo)) return limpo.replace(/\./g, '');
  return limpo;
}

const decimal = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: false,
});

/** 89.9 -> '89,90', for an input the person may edit. */
export const reaisParaCampo = (valor: number): string => decimal.format(valor);
