import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Configuracao } from './configuracao.js';

const PASTA_PADRAO = fileURLToPath(new URL('../../console/dist', import.meta.url));

/**
 * The console's own Content-Security-Policy, stricter than the web app's (decision 056): its
 * scripts and styles only (no inline script, no eval), frames of this origin only (the preview
 * frame below, decision 063), and the API and the socket on this origin. `'self'` covers
 * ws:/wss: to the same host; a public URL adds its socket origin.
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
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The preview frame's policy (decision 063): whatever the HTML holds, it is a document of an
 * opaque origin (`sandbox` with no allowance: no script, form, pop-up or navigation of its
 * parent) that loads nothing but its own inline styles and images, framed only by the console.
 */
export const POLITICA_DO_QUADRO = [
  'sandbox',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  // An e-mail's images are mostly on its sender's servers; shown as the e-mail would show them.
  'img-src data: https:',
  'font-src data: https:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

export const CAMINHO_DO_QUADRO = '/console/frame';

// E-mails with inline images run to a few megabytes.
const LIMITE_DO_QUADRO = 5 * 1024 * 1024;
const corpoDoQuadro = z.object({ html: z.string() });

/**
 * The console's pages set this cookie; the frame answers only posts that carry it. `SameSite=Strict`
 * keeps it off every request another site starts, so another site's form cannot make this
 * server show its HTML under the console's host. (Not `Origin`: Chrome sends `null` for a post
 * into a sandboxed frame; nor fetch metadata alone: it reaches https and localhost only.)
 */
const COOKIE_DO_QUADRO = 'sino_console_frame';

function vemDoConsole(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return request.cookies[COOKIE_DO_QUADRO] === '1';
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
  app.addHook('onSend', async (request, reply) => {
    reply.header(
      'content-security-policy',
      request.routeOptions.url === CAMINHO_DO_QUADRO ? POLITICA_DO_QUADRO : politica,
    );
  });

  // The preview frame (decision 063): a srcdoc frame would inherit the console's policy, which
  // refuses the inline styles every e-mail is written with. The console posts the HTML the
  // preview route rendered into a sandboxed frame, and gets it back as a document of its own
  // policy. It reads nothing and stores nothing, so it needs no session.
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: LIMITE_DO_QUADRO });
  app.post(CAMINHO_DO_QUADRO, { bodyLimit: LIMITE_DO_QUADRO }, async (request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!vemDoConsole(request))
      return reply
        .code(403)
        .type('text/plain; charset=utf-8')
        .send('Only the console frames a preview.');
    const corpo = corpoDoQuadro.safeParse(request.body);
    if (!corpo.success)
      return reply.code(400).type('text/plain; charset=utf-8').send('The preview needs its HTML.');
    return reply.type('text/html; charset=utf-8').send(corpo.data.html);
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
    return reply
      .setCookie(COOKIE_DO_QUADRO, '1', {
        path: CAMINHO_DO_QUADRO,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
      })
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indice);
  });
};
