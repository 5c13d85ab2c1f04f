/** Categories of the Brazilian driving licence, single and combined. */
export const CATEGORIAS_CNH = ['ACC', 'A', 'B', 'C', 'D', 'E', 'AB', 'AC', 'AD', 'AE'] as const;
export type CategoriaCnh = (typeof CATEGORIAS_CNH)[number];

/**
 * Cars need category B or higher (C, D and E include B). ACC (mopeds) contains a C but is not
 * one, so the categories are compared whole.
 */
export function cnhHabilitaCarro(categoria: string): boolean {
  const c = categoria.trim().toUpperCase();
  return c !== 'ACC' && /^A?[BCDE]$/.test(c);
}
