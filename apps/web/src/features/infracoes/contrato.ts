/**
 * The contract number behind what a person types: '123' or the code shown on contracts,
 * 'LOC-000123' (any case, hyphen optional). Null for anything else. The API's fines route
 * takes the number only, so the code is read here.
 */
export function idDoContrato(texto: string): number | null {
  const partes = /^(?:LOC-?)?0*(\d{1,10})$/i.exec(texto.trim());
  if (!partes) return null;
  const id = Number(partes[1]);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

export const MENSAGEM_CONTRATO_INVALIDO =
  'Informe o número do contrato, por exemplo 123 ou LOC-000123.';
