import { existsSync } from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { ConfiguracaoInvalida, lerConfiguracao } from './configuracao.js';
import { construirApp } from './app.js';

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

const app = await construirApp(config);
closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info({ signal }, 'closing');
  await app.close();
});
await app.listen({ port: config.PORT, host: config.HOST });
