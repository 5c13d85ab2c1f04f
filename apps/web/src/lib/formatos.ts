// Brazilian formats: BRL money (Intl puts a non-breaking space after R$) and dd/mm/aaaa dates in
// Belo Horizonte's time zone, whatever the browser's.

export { formatarReais } from '@locadora/contract/preco';

const FUSO = 'America/Sao_Paulo';

const data = new Intl.DateTimeFormat('pt-BR', {
  timeZone: FUSO,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const dataHora = new Intl.DateTimeFormat('pt-BR', {
  timeZone: FUSO,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 'aaaa-mm-dd' (a calendar date) or an ISO instant -> 'dd/mm/aaaa'. */
export function formatarData(valor: string | null | undefined): string {
  if (!valor) return '—';
  const soData = /^(\d{4})-(\d{2})-(\d{2})$/.exec(valor);
  if (soData) return `${soData[3]}/${soData[2]}/${soData[1]}`;
  const instante = new Date(valor);
  return Number.isNaN(instante.getTime()) ? valor : data.format(instante);
}

/** ISO instant -> 'dd/mm/aaaa hh:mm' in Belo Horizonte. */
export function formatarDataHora(valor: string | null | undefined): string {
  if (!valor) return '—';
  const instante = new Date(valor);
  return Number.isNaN(instante.getTime()) ? valor : dataHora.format(instante).replace(',', '');
}

/** Today as 'aaaa-mm-dd' in Belo Horizonte (for date inputs). */
export function hojeLocal(agora = new Date()): string {
  const partes = new Intl.DateTimeFormat('en-CA', { timeZone: FUSO }).format(agora);
  return partes;
}
