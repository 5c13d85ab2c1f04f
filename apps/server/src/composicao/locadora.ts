import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '@locadora/db';
import {
  criarEntregadorDoOutbox,
  criarLigacaoAoSino,
  garantirNotificacoes,
  locadoraApi,
  type EntregadorDoOutbox,
  type LigacaoAoSino,
} from '@locadora/api';
import type { SinoClient } from '@sino/client';
import type { Configuracao } from '../configuracao.js';
import type { Papeis } from '../papeis.js';
import { TRAVAS } from '../banco.js';
import { rotasDoWeb } from '../web.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker sending Locadora's outbox to Sino; null where this process runs no workers. */
    outboxDaLocadora: EntregadorDoOutbox | null;
    /**
     * Connects Locadora's workers to Sino once the server is ready (its in-process client
     * answers only then): writes Locadora's workflows if their definition changed, then starts
     * the outbox. Answers whether it did; until it does it tries again in the background.
     */
    ligarLocadoraAoSino(): Promise<boolean>;
  }
}

export interface OpcoesDaLocadora {
  /** The opened database (migrated and seeded). */
  banco: DatabaseHandle;
  config: Configuracao;
  papeis: Papeis;
  /** HS256 key of the access tokens (shared by every process of the installation). */
  segredoJwt: string;
  /** Former keys that still verify access tokens during a rotation (JWT_SECRETS_PREVIOUS). */
  segredosJwtAnteriores?: readonly string[] | undefined;
  /** Sino's server API with Locadora's key, in this process or remote; none without a key. */
  sino: { cliente: SinoClient; apiKey: string } | undefined;
  agora?: (() => Date) | undefined;
  conferirRespostas?: boolean | undefined;
}

/** Pauses between attempts to connect the workers to a Sino that is not ready (ms). */
const ESPERAS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Locadora's composition root: its API and the web app (role `api`), its outbox and workflows
 * (role `worker`), on the database and the Sino client it is given. Locadora learns its
 * environment through Sino's API (`criarLigacaoAoSino`), never from Sino's internals.
 */
export const locadoraDaInstalacao = fp<OpcoesDaLocadora>(
  async (
    app,
    { banco, config, papeis, segredoJwt, segredosJwtAnteriores, sino, agora, conferirRespostas },
  ) => {
    const log = app.log.child({ modulo: 'locadora-sino' });
    const ligacao = sino && criarLigacaoAoSino({ cliente: sino.cliente, apiKey: sino.apiKey, log });
    if (papeis.api) {
      await app.register(locadoraApi, {
        db: banco.db,
        segredoJwt,
        segredosJwtAnteriores,
        regras: {
          intervaloEntreLocacoesHoras: config.RENTAL_TURNAROUND_HOURS,
          prazoIndicacaoCondutorDias: config.FINE_DRIVER_INDICATION_DAYS,
        },
        sessao: {
          validadeAcessoMinutos: config.ACCESS_TOKEN_TTL_MINUTES,
          validadeSessaoDias: config.SESSION_TTL_DAYS,
        },
        login: {
          maximoFalhasPorEmail: config.LOGIN_MAX_FAILURES,
          maximoFalhasPorEndereco: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
          bloqueioMinutos: config.LOGIN_BLOCK_MINUTES,
        },
        ...(ligacao && { sino: ligacao, clienteSino: ligacao.cliente }),
        ...(agora && { agora }),
        ...(conferirRespostas && { conferirRespostas: true }),
      });
      await app.register(rotasDoWeb, { config });
    }
    // Locadora's business events reach Sino from its outbox, sent by the worker processes.
    const entregador =
      ligacao && papeis.worker
        ? criarEntregadorDoOutbox({
            db: banco.db,
            escutar: (canal, aoAvisar) => banco.listen(canal, aoAvisar),
            sino: ligacao.cliente,
            log: app.log.child({ modulo: 'outbox-locadora' }),
          })
        : null;
    app.decorate('outboxDaLocadora', entregador);
    let fechando = false;
    let proxima: NodeJS.Timeout | undefined;
    // Before the database closes: the delivery under way finishes, nothing new starts.
    app.addHook('preClose', async () => {
      fechando = true;
      clearTimeout(proxima);
      await entregador?.parar();
    });
    if (!sino && (papeis.api || papeis.worker))
      app.log.warn(
        'Sino: sem chave de API (SINO_API_KEY ou $DATA_DIR/sino-development.json); os fluxos da Locadora não foram conferidos nem os avisos serão enviados',
      );

    let ligado = false;
    const tentar = async (): Promise<boolean> => {
      if (!entregador || !ligacao) return true;
      if (ligado || fechando) return ligado;
      try {
        ligado = await ligar(ligacao, entregador, banco, log, config.PUBLIC_URL);
      } catch (err) {
        log.error(
          { err },
          'Sino: não foi possível garantir os fluxos da Locadora; nova tentativa adiante',
        );
      }
      return ligado;
    };
    app.decorate('ligarLocadoraAoSino', async () => {
      if (await tentar()) return true;
      // Sino is down, refuses the key or does not require hashes yet: events wait meanwhile.
      const deNovo = (vez: number) => {
        proxima = setTimeout(
          () => void tentar().then((ok) => ok || fechando || deNovo(vez + 1)),
          ESPERAS_MS[Math.min(vez, ESPERAS_MS.length - 1)],
        );
        proxima.unref();
      };
      deNovo(0);
      return false;
    });
  },
  { name: 'locadora-da-instalacao', fastify: '5.x' },
);

/**
 * Writes Locadora's layout and workflows (once, under a lock) and starts the outbox; false to
 * wait.
 */
async function ligar(
  ligacao: LigacaoAoSino,
  entregador: EntregadorDoOutbox,
  banco: DatabaseHandle,
  log: FastifyBaseLogger,
  urlPublica: string,
): Promise<boolean> {
  if (!(await ligacao.ambiente())) return false;
  const { layout, fluxos } = await banco.exclusive(TRAVAS.fluxosDaLocadora, () =>
    garantirNotificacoes(ligacao.cliente, { urlPublica }),
  );
  log.info({ layout, fluxos }, 'Sino: fluxos da Locadora garantidos');
  // After the workflows exist: an event sent before them would be refused as unknown.
  entregador.iniciar();
  return true;
}
