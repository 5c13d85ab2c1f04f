// `npm run sino:reseal` (node apps/server/dist/resselar.js): a rotation of SINO_ENCRYPTION_KEY
// in a scaled-out installation (docs/operations/deploy.md, decision 038). Every value Sino
// sealed under another key than SINO_ENCRYPTION_KEY is sealed again under it, as the worker
// processes do at start; run it once every process has the new key, and before removing the
// previous one. Exits 0 when nothing is left under another key, 1 otherwise.
import { existsSync } from 'node:fs';
import { describeUnopened, resealSecrets } from '@sino/core';
import { ConfiguracaoInvalida, lerConfiguracao, type Configuracao } from './configuracao.js';
import { abrirBanco, TRAVAS } from './banco.js';
import { descreverFalhaDoBanco } from './falha-do-banco.js';

if (existsSync('.env')) process.loadEnvFile('.env');

const sair: (mensagem: string, codigo: number) => never = (mensagem, codigo) => {
  (codigo === 0 ? console.log : console.error)(mensagem);
  process.exit(codigo);
};

let config: Configuracao;
try {
  config = lerConfiguracao();
} catch (erro) {
  if (erro instanceof ConfiguracaoInvalida) sair(erro.message, 2);
  throw erro;
}
// The embedded database belongs to the one server process that has it open.
const urlDoBanco =
  config.DATABASE_URL ??
  sair(
    'sino:reseal needs DATABASE_URL: with the embedded database, restart the server instead (it re-seals at start)',
    2,
  );
const chaves = {
  current:
    config.SINO_ENCRYPTION_KEY ??
    sair(
      'sino:reseal needs SINO_ENCRYPTION_KEY (and SINO_ENCRYPTION_KEYS_PREVIOUS), as the servers have them',
      2,
    ),
  previous: config.SINO_ENCRYPTION_KEYS_PREVIOUS,
};

let banco;
try {
  banco = await abrirBanco(config);
} catch (erro) {
  const falha = descreverFalhaDoBanco(erro, urlDoBanco, config.DATABASE_CONNECT_TIMEOUT_SECONDS);
  if (falha) sair(falha, 1);
  throw erro;
}
try {
  const relatorio = await banco.exclusive(TRAVAS.resselagemDoSino, () =>
    resealSecrets(banco.db, chaves),
  );
  const naoAbertos = describeUnopened(relatorio);
  await banco.close();
  if (naoAbertos) sair(`Re-sealed ${relatorio.resealed}; ${naoAbertos}`, 1);
  sair(
    `Re-sealed ${relatorio.resealed} values: every sealed value is under the current key (key id ${relatorio.keyId}); SINO_ENCRYPTION_KEYS_PREVIOUS can be removed`,
    0,
  );
} catch (erro) {
  await banco.close();
  throw erro;
}
