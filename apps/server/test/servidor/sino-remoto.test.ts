import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@locadora/db';
import { createTestDatabase, testRunLog } from '@locadora/db/testing';
import { CONTAS_DEMO, IDENTIFICADORES_DOS_FLUXOS } from '@locadora/api';
import { abrirBanco, construirApp } from '../../src/app.js';
import { lerConfiguracao } from '../../src/configuracao.js';
import { cadastroValido, cpfDeTeste } from '../app-de-teste.js';

/**
 * Issue 18: Locadora and Sino deployed apart. Two servers listening on real ports, each on its
 * own database: Sino alone (HALVES=sino), and Locadora with SINO_URL pointing at it. Locadora
 * learns its environment through Sino's HTTP API (`GET /v1/environments/me`), writes its
 * workflows and sends a booking's event from its outbox over HTTP; the bell's session it hands
 * out opens the customer's inbox in Sino. Against a Sino whose environment does not require
 * the subscriber's hash, Locadora opens no bell and sends nothing.
 */

const CHAVE = 'chave-do-sino-remoto-de-teste-0123456789abcdef';
const SEGREDOS = {
  JWT_SECRET: 'segredo-de-teste-com-mais-de-trinta-e-dois-caracteres',
  SINO_WIDGET_JWT_SECRET: 'segredo-do-widget-de-teste-com-mais-de-32-caracteres',
  SINO_ENCRYPTION_KEY: 'chave-de-cifra-de-teste-com-mais-de-32-caracteres',
  SINO_API_KEY: CHAVE,
};

interface Servidor {
  app: FastifyInstance;
  banco: DatabaseHandle;
  url: string;
  logs: string[];
  fechar(): Promise<void>;
}

const registro = testRunLog();
registro.knownSecrets('segredo', Object.values(SEGREDOS));

async function servidor(ambiente: Record<string, string>): Promise<Servidor> {
  const teste = await createTestDatabase();
  const config = lerConfiguracao({
    PGLITE_DIR: 'memory://',
    DATA_DIR: '/nonexistent-data-dir-tests-must-not-write',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...(teste.url && { DATABASE_URL: teste.url }),
    ...SEGREDOS,
    ...ambiente,
  });
  const banco = await abrirBanco(config);
  const logs: string[] = [];
  const app = await construirApp(config, {
    banco,
    destinoDosLogs: {
      write: (linha: string) => {
        logs.push(linha);
        registro.write(linha);
      },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    banco,
    logs,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async fechar() {
      await app.close();
      await banco.close();
      await teste.drop();
    },
  };
}

let sino: Servidor;
let locadora: Servidor;

beforeAll(async () => {
  sino = await servidor({ HALVES: 'sino' });
  locadora = await servidor({ SINO_URL: sino.url });
});
afterAll(async () => {
  await locadora?.fechar();
  await sino?.fechar();
  registro.close();
});

async function pedir(
  base: string,
  metodo: string,
  caminho: string,
  { corpo, autorizacao }: { corpo?: unknown; autorizacao?: string } = {},
) {
  const r = await fetch(base + caminho, {
    method: metodo,
    headers: {
      ...(corpo !== undefined && { 'content-type': 'application/json' }),
      ...(autorizacao && { authorization: autorizacao }),
    },
    ...(corpo !== undefined && { body: JSON.stringify(corpo) }),
  });
  const texto = await r.text();
  return { status: r.status, corpo: (texto ? JSON.parse(texto) : {}) as Record<string, unknown> };
}

async function entrar(base: string, email: string, senha: string): Promise<string> {
  const r = await pedir(base, 'POST', '/api/Cadastro/authenticate', { corpo: { email, senha } });
  expect(r.status).toBe(200);
  return r.corpo.jwtToken as string;
}

describe('Locadora with SINO_URL, Sino in a server of its own', () => {
  it('each server runs its own half only', async () => {
    expect((await pedir(sino.url, 'GET', '/api/Categorias')).status).toBe(404);
    expect((await pedir(locadora.url, 'GET', '/v1/workflows')).status).toBe(404);
    expect((await pedir(sino.url, 'GET', '/health')).status).toBe(200);
    expect((await pedir(locadora.url, 'GET', '/ready')).status).toBe(200);
  });

  it("Locadora's workflows were written in Sino through its HTTP API", async () => {
    const r = await pedir(sino.url, 'GET', '/v1/workflows?limit=100', {
      autorizacao: `ApiKey ${CHAVE}`,
    });
    expect(r.status).toBe(200);
    const identificadores = (r.corpo.data as { triggers: { identifier: string }[] }[]).map(
      (w) => w.triggers[0]!.identifier,
    );
    expect(identificadores.sort()).toEqual([...IDENTIFICADORES_DOS_FLUXOS].sort());
  });

  it("a booking's event reaches Sino through the outbox, and the bell's session opens it", async () => {
    const senha = 'senha-forte-123';
    const email = `remoto.${process.pid}@teste.dev`;
    const cadastro = await pedir(locadora.url, 'POST', '/api/Cadastro', {
      corpo: cadastroValido({ email, senha, cpf: cpfDeTeste(77_001), nome: 'Rita Remota' }),
    });
    expect(cadastro.status, JSON.stringify(cadastro.corpo)).toBe(201);
    const token = await entrar(locadora.url, email, senha);
    const equipe = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
    const tokenDaEquipe = await entrar(locadora.url, equipe.email, equipe.senha);
    const bearer = (t: string) => `Bearer ${t}`;
    const categorias = (
      await pedir(locadora.url, 'GET', '/api/Categorias', { autorizacao: bearer(tokenDaEquipe) })
    ).corpo as unknown as { id_categoria: number; desc_categoria: string }[];
    const adicionais = (
      await pedir(locadora.url, 'GET', '/api/Adicionais', { autorizacao: bearer(tokenDaEquipe) })
    ).corpo as unknown as { id_adicional: number; descricao: string }[];
    const reserva = await pedir(locadora.url, 'POST', '/api/Locacao', {
      autorizacao: bearer(token),
      corpo: {
        id_local: 1,
        id_categoria: categorias.find((c) => c.desc_categoria === 'Hatches')!.id_categoria,
        modelo_veiculo: 'Gol',
        data_retirada: '2031-03-03',
        hora_retirada: '10:00',
        data_entrega: '2031-03-06',
        hora_entrega: '10:00',
        id_adicional: adicionais.find((a) => a.descricao === 'GPS')!.id_adicional,
      },
    });
    expect(reserva.status, JSON.stringify(reserva.corpo)).toBe(201);
    const idDaLocacao = reserva.corpo.id_locacao as number;

    // The bell, as the web app opens it: Locadora's session, then Sino's widget API.
    const sessao = await pedir(locadora.url, 'GET', '/api/me/notificacoes', {
      autorizacao: bearer(token),
    });
    expect(sessao.status).toBe(200);
    const inicio = await pedir(sino.url, 'POST', '/v1/widgets/session/initialize', {
      corpo: {
        applicationIdentifier: sessao.corpo.applicationIdentifier,
        subscriberId: sessao.corpo.subscriberId,
        hmacHash: sessao.corpo.subscriberHash,
      },
    });
    expect(inicio.status, JSON.stringify(inicio.corpo)).toBe(201);
    const tokenDoWidget = (inicio.corpo.data as { token: string }).token;
    await vi.waitFor(
      async () => {
        const feed = await pedir(sino.url, 'GET', '/v1/widgets/notifications/feed', {
          autorizacao: bearer(tokenDoWidget),
        });
        expect(feed.status).toBe(200);
        const mensagens = feed.corpo.data as { templateIdentifier: string; content: string }[];
        expect(mensagens.map((m) => m.templateIdentifier)).toEqual(['reserva-confirmada']);
        expect(mensagens[0]!.content).toContain(`LOC-${String(idDaLocacao).padStart(6, '0')}`);
      },
      { timeout: 15_000, interval: 100 },
    );
    // A hash made up by the browser opens nothing.
    const forjada = await pedir(sino.url, 'POST', '/v1/widgets/session/initialize', {
      corpo: {
        applicationIdentifier: sessao.corpo.applicationIdentifier,
        subscriberId: 'usuario-1',
        hmacHash: sessao.corpo.subscriberHash,
      },
    });
    expect(forjada.status).toBe(400);
  });
});

describe("a remote Sino whose environment does not require the subscriber's hash", () => {
  it('Locadora opens no bell, sends nothing, and says why in Portuguese', async () => {
    await sino.banco.db.execute(sql`update sino.integrations set hmac = false`);
    const outra = await servidor({ SINO_URL: sino.url });
    try {
      expect(outra.app.outboxDaLocadora).not.toBeNull();
      const recusa = outra.logs
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .find((l) => l.msg.startsWith('Sino: o ambiente da Locadora não exige o hash'));
      expect(recusa?.level).toBe(50);
      const equipe = CONTAS_DEMO.find((c) => c.papel === 'funcionario')!;
      const token = await entrar(outra.url, equipe.email, equipe.senha);
      const sessao = await pedir(outra.url, 'GET', '/api/me/notificacoes', {
        autorizacao: `Bearer ${token}`,
      });
      expect(sessao.status).toBe(503);
      expect(sessao.corpo.message).toMatch(/notificações estão indisponíveis/);
      // Its workflows were not checked nor its outbox started: nothing logged as guaranteed.
      expect(outra.logs.join('\n')).not.toContain('fluxos da Locadora garantidos');
    } finally {
      await outra.fechar();
      await sino.banco.db.execute(
        sql`update sino.integrations set hmac = true where channel = 'in_app'`,
      );
    }
  });
});
