import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Configuracao } from './configuracao.js';

const PASTA_PADRAO = fileURLToPath(new URL('../../console/dist', import.meta.url));

/**
 * The console's own Content-Security-Policy, stricter than the web app's (decision 056): its
 * scripts and styles only (no inline script, no eval), no frames of any origin (a template
 * preview is a sandboxed `srcdoc` frame, which loads nothing), and the API and the socket on
 * this origin. `'self'` covers ws:/wss: to the same host; a public URL adds its socket origin.
 */
export function politicaDoConsole(config: Pick<Configuracao, 'SINO_PUBLIC_URL'>): string {
  const conexoes = ["'self'"];
  if (config.SINO_PUBLIC_URL) {
    const publica = new URL(config.SINO_PUBLIC_URL);
    conexoes.push(`${publica.protocol === 'https:' ? 'wss:' : 'ws:'}//${publica.host}`);
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${conexoes.join(' ')}`,
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Sino's console under /console: hashed assets cached for a year, and every other GET under
 * /console answered with the console's index.html (never cached), so deep links such as
 * /console/get-started reach the console's router and never Locadora's fallback. Encapsulated:
 * its policy header and routes touch nothing else of the server.
 */
export const rotasDoConsole: FastifyPluginAsync<{ config: Configuracao }> = async (
  app,
  { config },
) => {
  const pasta = config.CONSOLE_DIST_DIR ?? PASTA_PADRAO;
  const politica = politicaDoConsole(config);
  // Replaces the server-wide policy helmet set at onRequest (the last value written wins).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', politica);
  });
  if (!existsSync(`${pasta}/index.html`)) {
    app.log.warn({ pasta }, 'Sino console not built: run `npm run build -w @sino/console`');
    const naoConstruido = async (_request: unknown, reply: FastifyReply) =>
      reply.code(404).send({
        statusCode: 404,
        error: 'Not Found',
        message: 'The console is not built on this server: run `npm run build`',
      });
    app.get('/console', naoConstruido);
    app.get('/console/*', naoConstruido);
    return;
  }
  // Read once: it changes only with a new build, which means a new start.
  const indice = readFileSync(`${pasta}/index.html`);
  await app.register(fastifyStatic, {
    root: pasta,
    prefix: '/console/',
    wildcard: false,
    index: false,
    // The web app's registration may have decorated the reply already; index.html is sent below.
    decorateReply: false,
    setHeaders(reply, caminho) {
      reply.header(
        'cache-control',
        caminho.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/console', (_request, reply) => reply.redirect('/console/', 301));
  // Files found at start have their own routes (wildcard: false); anything else is a page.
  app.get('/console/*', (request, reply) => {
    // A missing hashed file is a 404, never the page: a stale tab must not parse HTML as JS.
    if (request.url.startsWith('/console/assets/'))
      return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indice);
  });
};
