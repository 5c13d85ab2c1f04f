import { z } from 'zod';

/** Body of every error answer of the rental API. */
export const erroSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  campos: z
    .array(z.object({ campo: z.string(), mensagem: z.string() }))
    .optional()
    .describe('Each invalid field with its message (400 only)'),
});

const nomes: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
export const nomeDoStatus = (status: number): string => nomes[status] ?? 'Error';

/** Error answers documented on a route, so `/docs/json` lists them. */
export function errosDocumentados(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, erroSchema.describe(nomeDoStatus(s))]));
}

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const idQuery = idParams;
