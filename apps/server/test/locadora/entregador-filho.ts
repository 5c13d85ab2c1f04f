// A separate process running Locadora's outbox worker on a PostgreSQL database, so that a test
// can kill it with SIGKILL mid-delivery (notificacoes-outbox.test.ts). Its settings come from
// the environment; it prints one line when it polls.
import { openDatabase } from '@locadora/db';
import { criarEntregadorDoOutbox } from '@locadora/api';
import { createSinoClient } from '@sino/client';

const banco = await openDatabase({ url: process.env.FILHO_DATABASE_URL });
const entregador = criarEntregadorDoOutbox({
  db: banco.db,
  sino: createSinoClient({
    baseUrl: process.env.FILHO_SINO_URL!,
    apiKey: process.env.FILHO_SINO_API_KEY!,
  }),
  log: { warn() {}, error() {} },
  intervaloMs: 50,
  reservaSegundos: Number(process.env.FILHO_RESERVA_SEGUNDOS),
});
entregador.iniciar();
process.stdout.write('pronto\n');
