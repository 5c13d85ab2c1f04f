import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Configuracao } from './configuracao.js';

const PASTA_PADRAO = fileURLToPath(new URL('../../web/dist', import.meta.url));

const configuracaoWebSchema = z.object({
  mapa: z.object({ urlDosTiles: z.string(), atribuicao: z.string() }),
  dashboard: z.object({ urlDoRelatorioBi: z.string().nullable() }),
});

/** Origins the web app's pages may load tiles and frames from (Content-Security-Policy). */
export function origensExternas(config: Configuracao) {
  const origem = (url: string) => new URL(url.replace(/\{[a-z]\}/g, 'a')).origin;
  return {
    tiles: origem(config.MAP_TILE_URL),
    relatorioBi: config.DASHBOARD_BI_URL ? origem(config.DASHBOARD_BI_URL) : null,
  };
}

/**
 * The built single-page app: hashed assets cached for a year, index.html never cached, and any
 * other GET that accepts HTML answered with index.html so deep links (/locacao) work. Plus the
 * runtime settings the app reads at start (map tiles, BI report), so one build fits any deploy.
 */
const web: FastifyPluginAsyncZod<{ config: Configuracao }> = async (app, { config }) => {
  app.get(
    '/api/configuracao',
    {
      schema: {
        tags: ['Web'],
        summary: 'Runtime settings of the web app (public)',
        response: { 200: configuracaoWebSchema },
      },
    },
    async () => ({
      mapa: { urlDosTiles: config.MAP_TILE_URL, atribuicao: config.MAP_ATTRIBUTION },
      dashboard: { urlDoRelatorioBi: config.DASHBOARD_BI_URL ?? null },
    }),
  );

  const pasta = config.WEB_DIST_DIR ?? PASTA_PADRAO;
  if (!existsSync(`${pasta}/index.html`)) {
    app.log.warn({ pasta }, 'web app not built: run `npm run build -w @locadora/web`');
    return;
  }
  await app.register(fastifyStatic, {
    root: pasta,
    wildcard: false,
    index: false,
    setHeaders(reply, caminho) {
      reply.header(
        'cache-control',
        caminho.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const querHtml = request.headers.accept?.includes('text/html');
    // /console is Sino's console (console.ts): where Sino is not served, its links are 404s.
    if (
      request.method !== 'GET' ||
      !querHtml ||
      /^\/(api|docs|v1|socket\.io)\/|^\/console(\/|\?|$)/.test(request.url)
    )
      return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
};

// Not encapsulated: the fallback is the whole server's 404 handler (the API keeps its own).
export const rotasDoWeb = fp(web, { name: 'locadora-web' });
