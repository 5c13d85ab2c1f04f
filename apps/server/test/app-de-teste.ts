import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { CONTAS_DEMO } from '@locadora/api';
import type { DevelopmentCredentials } from '@sino/core';
import { lerConfiguracao } from '../src/configuracao.js';
import { abrirBanco, construirApp } from '../src/app.js';

export type Papel = 'cliente' | 'funcionario' | 'admin';
type Metodo = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AppDeTeste {
  app: FastifyInstance;
  /** The database the app was given: tests read it, and make it refuse a statement. */
  banco: DatabaseHandle;
  /** The test database's address on PostgreSQL (another process may open it); none on PGlite. */
  urlDoBanco: string | undefined;
  /** Every log line the app wrote, for assertions on what is (not) logged. */
  logs: string[];
  /** Sino's development credentials, created by the first start. */
  sino: DevelopmentCredentials;
  /** Access token of the seeded demo account of that role. */
  tokenDe(papel: Papel): Promise<string>;
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

/**
 * Builds the real server on a throw-away database: in-memory PGlite, or a fresh PostgreSQL
 * database when TEST_DATABASE_URL is set (CI runs the suite both ways).
 */
export async function criarAppDeTeste(
  opcoes: {
    ambiente?: Record<string, string>;
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
    JWT_SECRET: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
    SINO_WIDGET_JWT_SECRET: 'segredo-do-widget-de-teste-com-mais-de-32-caracteres',
    SINO_ENCRYPTION_KEY: 'chave-de-cifra-de-teste-com-mais-de-32-caracteres',
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
    ...(opcoes.agora && { agora: opcoes.agora }),
    ...(opcoes.prefixoDaFilaSino && { prefixoDaFilaSino: opcoes.prefixoDaFilaSino }),
  }).catch(async (erro: unknown) => {
    if (!anterior) await banco.close();
    throw erro;
  });
  const tokens = new Map<string, string>();
  // A restart test stops an app before the one that owns the database closes it.
  let parada: Promise<void> | undefined;
  const parar = () => (parada ??= app.close());

  const chamar: AppDeTeste['chamar'] = (metodo, url, { token, corpo } = {}) => {
    registroDaExecucao.knownSecretsIn(corpo);
    return app.inject({
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

  if (!sino) throw new Error('Sino did not create its development credentials');
  registroDaExecucao.knownSecrets('chave de API do Sino', [sino.apiKey]);
  return {
    app,
    banco,
    urlDoBanco: bancoDeTeste.url,
    logs,
    sino,
    chamar,
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
