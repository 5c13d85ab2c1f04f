import type {
  FastifyInstance,
  InjectOptions as InjectDoFastify,
  LightMyRequestResponse,
} from 'fastify';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { CONTAS_DEMO } from '@locadora/api';
import type { DevelopmentCredentials } from '@sino/core';
import {
  apart,
  appOverHttp,
  startTestCluster,
  topology,
  type InjectOptions,
} from '../../../test/topology.js';
import { lerConfiguracao } from '../src/configuracao.js';
import { abrirBanco, construirApp } from '../src/app.js';

/** The suites' topology (TEST_TOPOLOGY, decision 041). */
export { apart, topology } from '../../../test/topology.js';

export type Papel = 'cliente' | 'funcionario' | 'admin';
type Metodo = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AppDeTeste {
  /**
   * With TEST_TOPOLOGY=cluster|halves, only `inject`, over HTTP to the balancer: anything
   * else of the Fastify instance throws, and a test that needs it is one-process only.
   */
  app: FastifyInstance;
  /** The database the app was given: tests read it, and make it refuse a statement. */
  banco: DatabaseHandle;
  /** The balancer's address, with the server apart (TEST_TOPOLOGY); `urlDe` in any topology. */
  url?: string;
  /** The test database's address on PostgreSQL (another process may open it); none on PGlite. */
  urlDoBanco: string | undefined;
  /** Every log line the app wrote, for assertions on what is (not) logged. */
  logs: string[];
  /** Sino's development credentials, created by the first start. */
  sino: DevelopmentCredentials;
  /** Access token of the seeded demo account of that role (the first one, kept). */
  tokenDe(papel: Papel): Promise<string>;
  /** A fresh access token of the account (after the clock moved past the last one, say). */
  entrar(email: string, senha: string): Promise<string>;
  /** Signs up a new customer and returns its id and token. */
  novoCliente(
    dados?: Partial<Record<string, string>>,
  ): Promise<{ id: number; token: string; email: string; senha: string }>;
  chamar(
    metodo: Metodo,
    url: string,
    opcoes?: { token?: string; corpo?: unknown },
  ): Promise<LightMyRequestResponse>;
  /** Stops the app, leaving its database open (a restart); `fechar` does the rest. */
  parar(): Promise<void>;
  fechar(): Promise<void>;
}

let sequencia = 0;

/** A valid CPF from a counter (check digits computed), so every test customer is unique. */
export function cpfDeTeste(n: number): string {
  const base = String(100_000_000 + ((n * 7919 + process.pid * 31) % 899_999_999)).slice(0, 9);
  const dv = (d: string, p: number) => {
    let s = 0;
    for (let i = 0; i < d.length; i++) s += Number(d[i]) * (p - i);
    const r = (s * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const com1 = base + dv(base, 10);
  return com1 + dv(com1, 11);
}

/** The secrets every test app is given (and a cluster's processes share). */
const SEGREDOS = {
  JWT_SECRET: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
  SINO_WIDGET_JWT_SECRET: 'segredo-do-widget-de-teste-com-mais-de-32-caracteres',
  SINO_ENCRYPTION_KEY: 'chave-de-cifra-de-teste-com-mais-de-32-caracteres',
};

type OpcoesDoApp = Parameters<typeof criarAppDeTeste>[0];

/**
 * Builds the real server on a throw-away database: in-memory PGlite, or a fresh PostgreSQL
 * database when TEST_DATABASE_URL is set (CI runs the suite both ways); with TEST_TOPOLOGY
 * `cluster` or `halves`, the server as processes behind the local balancer (decision 041),
 * reached over HTTP.
 */
export async function criarAppDeTeste(
  opcoes: {
    ambiente?: Record<string, string>;
    /**
     * A fake clock: Locadora's services read it in one process; apart, it is every node's
     * `Date` (access tokens' and Sino's too), written before each request.
     */
    agora?: () => Date;
    /** The URL the app is given for the test database (through a proxy, say). */
    viaDoBanco?: (url: string) => string;
    /** Prefix of Sino's queue keys in Redis (a test's own, removed after it). */
    prefixoDaFilaSino?: string;
    /**
     * A restart: the app starts on that app's database (and knows its Sino credentials); the
     * database stays that app's, closed and dropped by its `fechar`, after this one's.
     */
    noBancoDe?: AppDeTeste;
  } = {},
): Promise<AppDeTeste> {
  if (apart) return criarAglomeradoDeTeste(opcoes);
  const anterior = opcoes.noBancoDe;
  const bancoDeTeste = anterior
    ? { url: anterior.urlDoBanco, drop: async () => {} }
    : await createTestDatabase();
  const logs: string[] = [];
  // The whole run's log lines are scanned for the secrets and personal data the tests used.
  const registroDaExecucao = testRunLog();
  const config = lerConfiguracao({
    PGLITE_DIR: 'memory://',
    DATABASE_URL:
      bancoDeTeste.url && opcoes.viaDoBanco
        ? opcoes.viaDoBanco(bancoDeTeste.url)
        : bancoDeTeste.url,
    ...SEGREDOS,
    LOG_LEVEL: 'info',
    DATA_DIR: '/nonexistent-data-dir-tests-must-not-write',
    ...opcoes.ambiente,
  });
  registroDaExecucao.knownSecrets('segredo', [
    config.JWT_SECRET,
    config.SINO_WIDGET_JWT_SECRET,
    config.SINO_ENCRYPTION_KEY,
    config.SINO_API_KEY,
    ...(config.JWT_SECRETS_PREVIOUS ?? []),
    ...(config.SINO_WIDGET_JWT_SECRETS_PREVIOUS ?? []),
    ...(config.SINO_ENCRYPTION_KEYS_PREVIOUS ?? []),
  ]);
  for (const conta of CONTAS_DEMO) registroDaExecucao.knownSecretsIn(conta);
  // The test opens the database and gives it to the app, as the server's entry does.
  const banco = anterior?.banco ?? (await abrirBanco(config));
  let sino: DevelopmentCredentials | undefined = anterior?.sino;
  const app = await construirApp(config, {
    banco,
    destinoDosLogs: {
      write: (linha: string) => {
        logs.push(linha);
        registroDaExecucao.write(linha);
      },
    },
    conferirRespostas: true,
    aoCriarCredenciaisSino: (c) => (sino = c),
    // The console admin's generated password: a secret of the run, never in a log line.
    aoCriarAdminsSino: (admins) =>
      registroDaExecucao.knownSecrets(
        'senha do admin do Sino',
        admins.map((a) => a.password),
      ),
    ...(opcoes.agora && { agora: opcoes.agora }),
    ...(opcoes.prefixoDaFilaSino && { prefixoDaFilaSino: opcoes.prefixoDaFilaSino }),
  }).catch(async (erro: unknown) => {
    if (!anterior) await banco.close();
    throw erro;
  });
  // A restart test stops an app before the one that owns the database closes it.
  let parada: Promise<void> | undefined;
  const parar = () => (parada ??= app.close());
  if (!sino) throw new Error('Sino did not create its development credentials');
  registroDaExecucao.knownSecrets('chave de API do Sino', [
    sino.apiKey,
    ...(sino.production ? [sino.production.apiKey] : []),
  ]);
  return {
    app,
    banco,
    urlDoBanco: bancoDeTeste.url,
    logs,
    sino,
    ...contas(registroDaExecucao, (pedido) => app.inject(pedido as InjectDoFastify)),
    parar,
    async fechar() {
      await parar();
      registroDaExecucao.close();
      if (anterior) return;
      await banco.close();
      await bancoDeTeste.drop();
    },
  };
}

/** What calls the app (its `inject`, or the same over HTTP) and the accounts made through it. */
function contas(
  registroDaExecucao: ReturnType<typeof testRunLog>,
  injetar: (pedido: InjectOptions) => Promise<LightMyRequestResponse>,
): Pick<AppDeTeste, 'chamar' | 'tokenDe' | 'entrar' | 'novoCliente'> {
  const tokens = new Map<string, string>();
  const chamar: AppDeTeste['chamar'] = (metodo, url, { token, corpo } = {}) => {
    registroDaExecucao.knownSecretsIn(corpo);
    return injetar({
      method: metodo,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(corpo !== undefined && { payload: corpo as object }),
    });
  };

  async function entrar(email: string, senha: string): Promise<string> {
    const r = await chamar('POST', '/api/Cadastro/authenticate', { corpo: { email, senha } });
    if (r.statusCode !== 200)
      throw new Error(`login de ${email} falhou: ${r.statusCode} ${r.body}`);
    registroDaExecucao.knownSecrets(
      'cookie',
      r.cookies.map((c) => c.value),
    );
    return r.json<{ jwtToken: string }>().jwtToken;
  }

  return {
    chamar,
    entrar,
    async tokenDe(papel) {
      const conta = CONTAS_DEMO.find((c) => c.papel === papel)!;
      if (!tokens.has(papel)) tokens.set(papel, await entrar(conta.email, conta.senha));
      return tokens.get(papel)!;
    },
    async novoCliente(dados = {}) {
      const n = ++sequencia;
      const senha = 'senha-forte-123';
      const email = `cliente${n}.${process.pid}@teste.dev`;
      const r = await chamar('POST', '/api/Cadastro', {
        corpo: cadastroValido({ email, senha, cpf: cpfDeTeste(n), ...dados }),
      });
      if (r.statusCode !== 201) throw new Error(`cadastro falhou: ${r.statusCode} ${r.body}`);
      return {
        id: r.json<{ id: number }>().id,
        token: await entrar(dados.email ?? email, dados.senha ?? senha),
        email,
        senha,
      };
    },
  };
}

/**
 * The server as processes (TEST_TOPOLOGY=cluster|halves): `ambiente` is every node's
 * environment, `viaDoBanco` the database address the nodes are given, `prefixoDaFilaSino` the
 * installation's Redis prefix, `agora` the clock every node shares (read before each request:
 * test/support/shared-clock.mjs); a restart (`noBancoDe`) is the test process's and is
 * refused: such a test is one-process only.
 */
async function criarAglomeradoDeTeste(opcoes: NonNullable<OpcoesDoApp>): Promise<AppDeTeste> {
  if (opcoes.noBancoDe)
    throw new Error(
      `criarAppDeTeste: noBancoDe lives in the test's process: mark the test one-process only (TEST_TOPOLOGY=${topology})`,
    );
  const iniciado = await startTestCluster({
    env: { ...SEGREDOS, SEED_DEMO_ACCOUNTS: 'true', ...opcoes.ambiente },
    ...(opcoes.viaDoBanco && { databaseVia: opcoes.viaDoBanco }),
    ...(opcoes.prefixoDaFilaSino && { redisPrefix: opcoes.prefixoDaFilaSino }),
    ...(opcoes.agora && { clock: opcoes.agora }),
  });
  const registroDaExecucao = iniciado.runLog;
  for (const conta of CONTAS_DEMO) registroDaExecucao.knownSecretsIn(conta);
  const apiKey = iniciado.cluster.secrets.SINO_API_KEY!;
  const eu = await iniciado.inject({
    url: '/v1/environments/me',
    headers: { authorization: `ApiKey ${apiKey}` },
  });
  if (eu.statusCode !== 200) {
    await iniciado.close();
    throw new Error(`environments/me: ${eu.statusCode} ${eu.body}`);
  }
  const ambiente = eu.json<{
    data: { _id: string; _organizationId: string; identifier: string };
  }>().data;
  let fechado: Promise<void> | undefined;
  const fechar = () => (fechado ??= iniciado.close());
  return {
    app: appOverHttp<FastifyInstance>(iniciado.inject),
    url: iniciado.url,
    banco: iniciado.database,
    urlDoBanco: iniciado.databaseUrl,
    logs: iniciado.logs,
    sino: {
      apiKey,
      applicationIdentifier: ambiente.identifier,
      environmentId: ambiente._id,
      organizationId: ambiente._organizationId,
      requiresSubscriberHash: true,
    },
    ...contas(
      registroDaExecucao,
      (pedido) => iniciado.inject(pedido) as unknown as Promise<LightMyRequestResponse>,
    ),
    parar: fechar,
    fechar,
  };
}

/** Where sockets and HTTP clients reach the app: the balancer, or a port of this process. */
export async function urlDe(t: AppDeTeste): Promise<string> {
  if (t.url) return t.url;
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export function cadastroValido(dados: Partial<Record<string, string>> = {}) {
  const senha = dados.senha ?? 'senha-forte-123';
  return {
    nome: 'Maria da Silva',
    dataNascimento: '1992-03-04',
    cpf: '123.456.789-09',
    telefone: '(31) 99876-5432',
    categoriaHabilitacao: 'B',
    rua: 'Rua dos Timbiras',
    numero: '1200',
    bairro: 'Funcionários',
    cidade: 'Belo Horizonte',
    municipio: 'Belo Horizonte',
    email: 'maria@example.com',
    confirmacaoSenha: senha,
    ...dados,
    senha,
  };
}
