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
