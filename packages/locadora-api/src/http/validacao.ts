import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

const portugues = z.locales.pt().localeError;

/**
 * Validates requests with zod and Portuguese messages (the schemas' own messages first,
 * zod's Portuguese locale for the rest). A failure returns the ZodError itself, which
 * Fastify tags with `validationContext` for the error handler.
 */
export const validadorEmPortugues: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (dados) => {
    const resultado = schema.safeParse(dados, { error: portugues });
    return resultado.success ? { value: resultado.data } : { error: resultado.error };
  };

export interface CampoInvalido {
  campo: string;
  mensagem: string;
}

/** One entry per failing field, with the body's root reported as `corpo`. */
export function camposInvalidos(erro: z.ZodError): CampoInvalido[] {
  return erro.issues.map((issue) => {
    const campo = issue.path.length ? issue.path.join('.') : 'corpo';
    const mensagem =
      !issue.path.length && issue.code === 'invalid_type'
        ? 'Envie os dados como um objeto JSON.'
        : issue.message;
    return { campo, mensagem };
  });
}
