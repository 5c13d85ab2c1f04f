const MERCOSUL = /^[A-Z]{3}\d[A-Z]\d{2}$/;
const ANTIGA = /^[A-Z]{3}\d{4}$/;

/** Upper-case, without the hyphen or spaces: 'abc-1234' -> 'ABC1234'. */
export function normalizarPlaca(valor: string): string {
  return valor.toUpperCase().replace(/[\s-]/g, '');
}

/** Mercosul plates (LLLNLNN) and the old format (LLL-NNNN, hyphen optional). */
export function placaValida(valor: string): boolean {
  const placa = normalizarPlaca(valor);
  return MERCOSUL.test(placa) || ANTIGA.test(placa);
}

/** Old plates are shown with their hyphen (ABC-1234); Mercosul plates have none. */
export function formatarPlaca(valor: string): string {
  const placa = normalizarPlaca(valor);
  return ANTIGA.test(placa) ? `${placa.slice(0, 3)}-${placa.slice(3)}` : placa;
}
