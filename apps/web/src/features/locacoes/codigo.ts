const MAIOR_ID = 2_147_483_647;

/**
 * The reservation number behind what a person types on the location screen: '11', 'LOC-000011',
 * 'loc11'; null for anything else. The same rule as the server's, so a code it would refuse is
 * never sent.
 */
export function idDoCodigo(texto: string): number | null {
  const partes = /^(?:LOC-?)?(\d{1,10})$/i.exec(texto.trim());
  if (!partes) return null;
  const id = Number(partes[1]);
  return id >= 1 && id <= MAIOR_ID ? id : null;
}
