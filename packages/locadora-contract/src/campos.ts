import { z } from 'zod';
import { cpfValido, normalizarCpf } from './cpf.js';
import { normalizarPlaca, placaValida } from './placa.js';

// Building blocks for the request schemas, each with a Portuguese message naming what is wrong.

export const texto = (rotulo: string, max = 200) =>
  z
    .string({ error: `Informe ${rotulo}.` })
    .trim()
    .min(1, { error: `Informe ${rotulo}.` })
    .max(max, { error: `${capitalizar(rotulo)}: no máximo ${max} caracteres.` });

export const textoOpcional = (rotulo: string, max = 2000) =>
  z
    .string({ error: `${capitalizar(rotulo)} deve ser um texto.` })
    .trim()
    .max(max, { error: `${capitalizar(rotulo)}: no máximo ${max} caracteres.` })
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * Numbers arrive as JSON numbers or as form strings ("1", "89.9"). Coercion alone would read an
 * empty box ("" or "  ") or null as 0 and store it; they count as missing instead.
 */
const vazioComoAusente = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** A positive integer id; numeric strings are accepted (forms send "1"). */
export const id = (rotulo: string) => z.preprocess(vazioComoAusente, idNumerico(rotulo));

const idNumerico = (rotulo: string) =>
  z.coerce
    .number({ error: `Informe ${rotulo}.` })
    .int({ error: `${capitalizar(rotulo)} ${flexionar(rotulo, 'inválido')}.` })
    .positive({ error: `Informe ${rotulo}.` })
    .max(2_147_483_647, { error: `${capitalizar(rotulo)} ${flexionar(rotulo, 'inválido')}.` });

export const dinheiro = (rotulo: string, { positivo = true } = {}) =>
  z.preprocess(vazioComoAusente, dinheiroNumerico(rotulo, positivo));

const dinheiroNumerico = (rotulo: string, positivo: boolean) =>
  z.coerce
    .number({ error: `Informe ${rotulo} em reais.` })
    .refine((v) => Number.isFinite(v), { error: `Informe ${rotulo} em reais.` })
    // Positive means at least one cent: 1e-300 passes the two-decimals check below (it is 0.00
    // to the cent) and would be stored as zero.
    .refine((v) => (positivo ? Math.round(v * 100) >= 1 : v >= 0), {
      error: positivo
        ? `${capitalizar(rotulo)} deve ser maior que zero.`
        : `${capitalizar(rotulo)} não pode ser ${flexionar(rotulo, 'negativo')}.`,
    })
    .refine((v) => v <= 10_000_000, { error: `${capitalizar(rotulo)} acima do limite permitido.` })
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, {
      error: `${capitalizar(rotulo)}: use no máximo duas casas decimais.`,
    });

export const inteiroNaoNegativo = (rotulo: string, max = 10_000_000) =>
  z.preprocess(vazioComoAusente, inteiroNumerico(rotulo, max));

const inteiroNumerico = (rotulo: string, max: number) =>
  z.coerce
    .number({ error: `Informe ${rotulo}.` })
    .int({ error: `${capitalizar(rotulo)} deve ser um número inteiro.` })
    .min(0, { error: `${capitalizar(rotulo)} não pode ser ${flexionar(rotulo, 'negativo')}.` })
    .max(max, { error: `${capitalizar(rotulo)} acima do limite permitido.` });

/** Calendar date 'aaaa-mm-dd'. */
export const data = (rotulo: string) =>
  z.iso.date({
    error: `${capitalizar(rotulo)} ${flexionar(rotulo, 'inválido')}: use o formato aaaa-mm-dd.`,
  });

/** Time of day 'hh:mm'. */
export const hora = (rotulo: string) =>
  z.iso.time({
    precision: -1,
    error: `${capitalizar(rotulo)} ${flexionar(rotulo, 'inválido')}: use o formato hh:mm.`,
  });

/** A moment: full ISO date-time with offset, or a calendar date (taken as midnight in Belo Horizonte). */
export const momento = (rotulo: string) =>
  z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: `${capitalizar(rotulo)} ${flexionar(rotulo, 'inválido')}: use aaaa-mm-dd ou data e hora ISO.`,
  });

export const booleano = (rotulo: string) =>
  z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
    error: `${capitalizar(rotulo)} deve ser verdadeiro ou falso.`,
  });

export const email = z
  .string({ error: 'Informe o e-mail.' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'Informe o e-mail.' })
  .max(254, { error: 'E-mail longo demais.' })
  .pipe(z.email({ error: 'E-mail inválido.' }));

export const cpf = z
  .string({ error: 'Informe o CPF.' })
  .trim()
  .min(1, { error: 'Informe o CPF.' })
  .refine(cpfValido, { error: 'CPF inválido: confira os dígitos.' })
  .transform(normalizarCpf);

export const telefone = z
  .string({ error: 'Informe o telefone.' })
  .transform((v) => v.replace(/\D/g, ''))
  .refine((v) => /^\d{10,11}$/.test(v), { error: 'Telefone inválido: informe DDD e número.' });

export const placa = z
  .string({ error: 'Informe a placa.' })
  .trim()
  .refine(placaValida, {
    error: 'Placa inválida: use o formato Mercosul (ABC1D23) ou antigo (ABC-1234).',
  })
  .transform(normalizarPlaca);

/**
 * Agrees an adjective ending in -o with the label's article: 'a quilometragem' -> 'negativa',
 * 'o veículo' -> 'negativo'. Labels without an article take the masculine.
 */
export function flexionar(rotulo: string, adjetivo: string): string {
  return /^as? /.test(rotulo) ? adjetivo.replace(/o$/, 'a') : adjetivo;
}

export function capitalizar(s: string): string {
  const semArtigo = s.replace(/^(o|a|os|as) /, '');
  return semArtigo.charAt(0).toUpperCase() + semArtigo.slice(1);
}
