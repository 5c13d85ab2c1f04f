import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSinoClient, type SinoClient } from '@sino/client';

/**
 * A fetch answered by this process's Fastify through `inject` (no socket, and usable before
 * the server listens): how Locadora reaches Sino's HTTP API when both run in one process.
 */
export function fetchLocal(app: FastifyInstance): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(body && { payload: body }),
    });
    return new Response(answer.statusCode === 204 ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers: Object.entries(answer.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, String(value)] as [string, string]],
      ),
    });
  };
}

/**
 * Sino's client for the Locadora in this same process: the same HTTP API any customer uses,
 * answered through Fastify's `inject` (`fetchLocal`).
 */
export function clienteSinoLocal(app: FastifyInstance, apiKey: string): SinoClient {
  return createSinoClient({ baseUrl: 'http://sino.local', apiKey, fetch: fetchLocal(app) });
}

/**
 * Locadora's environment (the one its key opens) requires the subscriber's HMAC hash to open a
 * widget session; an environment created before that rule is brought to it here, at start.
 */
export async function exigirHashDoAssinante(app: FastifyInstance, apiKey: string): Promise<void> {
  const ambiente = await app.sino.identity.environmentForApiKey(apiKey);
  if (ambiente) await app.sino.identity.requireSubscriberHash(ambiente.id);
}

/** The development API key the first start wrote to the data folder, if it is there. */
export function chaveSinoDoDiretorio(dataDir: string): string | undefined {
  try {
    const lidas = JSON.parse(readFileSync(join(dataDir, 'sino-development.json'), 'utf8')) as {
      apiKey?: unknown;
    };
    return typeof lidas.apiKey === 'string' ? lidas.apiKey : undefined;
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw erro;
  }
}
