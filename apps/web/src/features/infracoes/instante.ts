const FUSO = 'America/Sao_Paulo';

const deslocamento = new Intl.DateTimeFormat('en-US', {
  timeZone: FUSO,
  timeZoneName: 'longOffset',
});

/**
 * 'aaaa-mm-ddThh:mm' of a datetime-local input, read as Belo Horizonte's wall clock whatever
 * the browser's zone -> ISO instant with its offset ('2026-05-10T14:30:00-03:00').
 */
export function instanteDeBH(local: string): string {
  const aproximado = new Date(`${local}:00Z`);
  const nome =
    deslocamento.formatToParts(aproximado).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const offset = /^GMT([+-]\d{2}:\d{2})$/.exec(nome)?.[1] ?? '+00:00';
  return `${local}:00${offset}`;
}

const partesLocais = new Intl.DateTimeFormat('en-CA', {
  timeZone: FUSO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Now as 'aaaa-mm-ddThh:mm' in Belo Horizonte: the latest a fine can have happened. */
export function agoraEmBH(agora = new Date()): string {
  const p = Object.fromEntries(partesLocais.formatToParts(agora).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}
