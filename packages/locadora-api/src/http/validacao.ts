import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { findUnstorableInput, type UnstorableReason } from '@locadora/db';

const portugues = z.locales.pt().localeError;

const naoArmazenavel: Record<UnstorableReason, string> = {
  nul: 'O texto contém um caractere nulo (NUL), que não é aceito.',
  'unpaired-surrogate': 'O texto contém um caractere Unicode inválido.',
  'too-deep': 'Os dados têm níveis demais de aninhamento.',
};

/**
 * Validates requests with zod and Portuguese messages (the schemas' own messages first,
 * zod's Portuguese locale for the rest). A failure returns the ZodError itself, which
 * Fastify tags with `validationContext` for the error handler. Before the route's schema,
 * every part of every request is checked for text the database cannot store (one rule at the
 * edge, so no route can reach the database with it).
 */
export const validadorEmPortugues: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (dados) => {
    const achado = findUnstorableInput(dados);
    if (achado) {
      // ZodRealError: um Error, como o Fastify exige de uma falha de validação (ZodError não é).
      const problema = { code: 'custom' as const, path: achado.path, input: undefined };
      return {
        error: new z.ZodRealError([{ ...problema, message: naoArmazenavel[achado.reason] }]),
      };
    }
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
