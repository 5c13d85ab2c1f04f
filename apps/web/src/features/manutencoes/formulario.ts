import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * Checks a form with the contract's schema, the very one the API validates with, so the browser
 * and the server agree on every rule and message. The inputs' texts become the request first
 * (`paraPedido`). `exigidos` gives the message of a required field left empty: the contract
 * checks some of those in an object-level refinement, which zod runs only once every other field
 * is valid, and the person should see every missing field at once.
 */
export function resolverDoContrato<F extends FieldValues, S extends z.ZodType>(
  schema: S,
  paraPedido: (valores: F) => unknown,
  exigidos: Partial<Record<Extract<keyof F, string>, string>> = {},
): Resolver<F, unknown, z.output<S>> {
  return (valores) => {
    const erros: Record<string, { type: string; message: string }> = {};
    for (const [campo, mensagem] of Object.entries(exigidos) as [string, string][]) {
      const valor: unknown = valores[campo];
      if (valor === '' || valor === undefined || valor === null)
        erros[campo] = { type: 'required', message: mensagem };
    }
    const resultado = schema.safeParse(paraPedido(valores));
    if (!resultado.success) {
      for (const problema of resultado.error.issues) {
        const campo = String(problema.path[0] ?? 'root');
        erros[campo] ??= { type: problema.code, message: problema.message };
      }
    }
    if (Object.keys(erros).length > 0 || !resultado.success)
      return { values: {}, errors: erros as FieldErrors<F> };
    return { values: resultado.data, errors: {} };
  };
}

/** An input's text as the API wants it: absent when empty. */
export const ouIndefinido = (texto: string): string | undefined =>
  texto.trim() === '' ? undefined : texto.trim();

/**
 * A decimal number typed the Brazilian way ('3,5') or with a point ('3.5'). Undefined when
 * empty; NaN when it is not a number, for the contract to say so.
 */
export function lerDecimal(texto: string): number | undefined {
  const limpo = texto.trim().replace(',', '.');
  if (limpo === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(limpo) ? Number(limpo) : NaN;
}

/**
 * Money typed in reais: '1.234,56', '1234,56', 'R$ 1.234,56', '1234.56' or '1.234' (thousands).
 * With a comma, points group thousands; without one, a point followed by three digits per group
 * groups thousands and any other point is the decimal separator.
 */
export function lerReais(texto: string): number | undefined {
  const limpo = texto.replace(/R\$|\s/g, '');
  if (limpo === '') return undefined;
  const normal = limpo.includes(',')
    ? limpo.replace(/\./g, '').replace(',', '.')
    : /^-?\d{1,3}(\.\d{3})+$/.test(limpo)
      ? limpo.replace(/\./g, '')
      : limpo;
  return lerDecimal(normal);
}

const reais = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** '1234.5' typed -> '1.234,50' shown; text the contract would refuse is left as typed. */
export function reescreverReais(texto: string): string {
  const valor = lerReais(texto);
  if (valor === undefined || !Number.isFinite(valor)) return texto;
  return Math.abs(Math.round(valor * 100) - valor * 100) < 1e-6 ? reais.format(valor) : texto;
}
