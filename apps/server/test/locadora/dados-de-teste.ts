/** Shared by the fines, reviews and privacy tests: a fixed clock near the real one. */

export const HORA = 3_600_000;
export const DIA = 24 * HORA;

/**
 * Tomorrow at 02:30 UTC: still today in Belo Horizonte (UTC-3 all year, no daylight saving
 * since 2019), so a date taken in UTC instead of local time shows up in the assertions. Near
 * the real clock, because the seeded demo activity is dated from the real one.
 */
export function relogioDeTeste(): Date {
  const hoje = new Date();
  return new Date(
    Date.UTC(hoje.getUTCFullYear(), hoje.getUTCMonth(), hoje.getUTCDate() + 1, 2, 30),
  );
}

/** 'aaaa-mm-dd' in Belo Horizonte of the day `dias` after that of `instante`. */
export const diaLocal = (instante: Date, dias = 0): string =>
  new Date(instante.getTime() - 3 * HORA + dias * DIA).toISOString().slice(0, 10);

/** 'dd/mm/aaaa' in Belo Horizonte. */
export const dataLocalBr = (instante: Date): string =>
  diaLocal(instante).split('-').reverse().join('/');
