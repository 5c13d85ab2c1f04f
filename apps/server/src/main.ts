import { existsSync } from 'node:fs';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { ConfiguracaoInvalida, FOLGA_DO_ENCERRAMENTO_MS, lerConfiguracao } from './configuracao.js';
import { construirApp } from './app.js';
import { abrirBanco } from './banco.js';
import { descreverFalhaDoBanco } from './falha-do-banco.js';

if (existsSync('.env')) process.loadEnvFile('.env');

let config;
try {
  config = lerConfiguracao();
} catch (erro) {
  if (erro instanceof ConfiguracaoInvalida) {
    console.error(erro.message);
    process.exit(1);
  }
  throw erro;
}

let app: FastifyInstance;
try {
  app = await construirApp(config, {
    // The server closes the database it opened, after itself.
    banco: () => abrirBanco(config),
    // Standard error when it is a terminal: a piped or collected output is a log, not a screen.
    ...(process.stderr.isTTY && { terminal: (texto: string) => void process.stderr.write(texto) }),
  });
} catch (erro) {
  // A database that cannot be used is the operator's to fix: one line saying why, no stack.
  const falha =
    config.DATABASE_URL &&
    descreverFalhaDoBanco(erro, config.DATABASE_URL, config.DATABASE_CONNECT_TIMEOUT_SECONDS);
  if (falha) {
    console.error(falha);
    process.exit(1);
  }
  throw erro;
}
// The queue hands its running jobs back after SHUTDOWN_GRACE_MS; the rest of the close (the
// HTTP server's last requests, the connections) gets a little more, then the process ends.
closeWithGrace(
  { delay: config.SHUTDOWN_GRACE_MS + FOLGA_DO_ENCERRAMENTO_MS },
  async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing');
    await app.close();
  },
);
await app.listen({ port: config.PORT, host: config.HOST });
