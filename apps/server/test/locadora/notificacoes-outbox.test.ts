// @module-tag one-process: stops the app's outbox worker and drives outbox workers of its own in this process, against the app's in-process Sino (TEST_TOPOLOGY, decision 041)
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '@locadora/db';
import { testRunLog } from '@locadora/db/testing';
import { criarEntregadorDoOutbox, idDoAssinante, type OpcoesDoEntregador } from '@locadora/api';
import { createSinoClient } from '@sino/client';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { clienteSinoLocal, fetchLocal } from '../../src/sino-local.js';

/**
 * Issue 12's outbox: a committed reservation is notified exactly once, whatever Sino and the
 * worker go through; a rolled-back one never. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL. The app's own worker is stopped: each test drives its workers by hand.
 */

// A fixed clock: 1 June 2030, 09:00 in Belo Horizonte.
const AGORA = new Date('2030-06-01T12:00:00Z');

let t: AppDeTeste;
let banco: DatabaseHandle;
let hatches: number;
let gps: number;

const silencioso: OpcoesDoEntregador['log'] = { warn() {}, error() {} };
const dormir = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => AGORA });
  // The app's database, to read the outbox and to make a commit fail.
  banco = t.banco;
  await t.app.outboxDaLocadora!.parar();
  const equipe = await t.tokenDe('funcionario');
  hatches = (await t.chamar('GET', '/api/Categorias', { token: equipe }))
    .json<{ id_categoria: number; desc_categoria: string }[]>()
    .find((c) => c.desc_categoria === 'Hatches')!.id_categoria;
  gps = (await t.chamar('GET', '/api/Adicionais', { token: equipe }))
    .json<{ id_adicional: number; descricao: string }[]>()
    .find((a) => a.descricao === 'GPS')!.id_adicional;
});
afterAll(() => t?.fechar());

/**
 * A new customer. Its sign-up queued the e-mail with its confirmation link (decision 051): set
 * aside here as delivered, so that each test's workers send only the events the test counts.
 */
async function novoCliente(dados?: Partial<Record<string, string>>) {
  const cliente = await t.novoCliente(dados);
  await banco.db.execute(sql`
    update locadora.outbox set entregue_em = now()
     where fluxo = 'verificacao-de-email' and usuario_id = ${cliente.id} and entregue_em is null`);
  return cliente;
}

let semana = 0;
async function reservar(token: string, observacao?: string) {
  const inicio = new Date(Date.UTC(2030, 6, 1 + 7 * semana++));
  const fim = new Date(inicio.getTime() + 3 * 86_400_000);
  return t.chamar('POST', '/api/Locacao', {
    token,
    corpo: {
      id_local: 1,
      id_categoria: hatches,
      modelo_veiculo: 'Gol',
      data_retirada: inicio.toISOString().slice(0, 10),
      hora_retirada: '10:00',
      data_entrega: fim.toISOString().slice(0, 10),
      hora_entrega: '10:00',
      id_adicional: gps,
      ...(observacao && { observacao }),
    },
  });
}

interface LinhaDoOutbox {
  id: string;
  fluxo: string;
  tentativas: number;
  entregue_em: unknown;
  ultimo_erro: string | null;
}

async function linhasDoOutbox(filtro = sql`true`): Promise<LinhaDoOutbox[]> {
  const r = (await banco.db.execute(sql`
    select id, fluxo, tentativas, entregue_em, ultimo_erro from locadora.outbox
     where ${filtro} order by criado_em`)) as { rows: LinhaDoOutbox[] };
  return r.rows;
}

const eventoDaReserva = async (id: number): Promise<LinhaDoOutbox> => {
  const [linha, ...outras] = await linhasDoOutbox(
    sql`fluxo = 'reserva-confirmada' and payload->>'id' = ${String(id)}`,
  );
  expect(outras).toEqual([]);
  return linha!;
};

interface Mensagem {
  transactionId: string;
  templateIdentifier: string;
  content: string;
  cta: { data: { url?: string } };
}

/** The customer's in-app feed in Sino (empty while Sino has never heard of them). */
async function feed(usuarioId: number): Promise<Mensagem[]> {
  const r = await t.app.inject({
    method: 'GET',
    url: `/v1/subscribers/${idDoAssinante(usuarioId)}/notifications/feed?limit=100`,
    headers: { authorization: `ApiKey ${t.sino.apiKey}` },
  });
  if (r.statusCode === 400 && /Subscriber not found/.test(r.body)) return [];
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ data: Mensagem[] }>().data;
}

/**
 * The messages of one trigger once Sino's queue has run it: waits for the first, then a little
 * longer, so that a second one would have shown up too.
 */
async function mensagensDe(usuarioId: number, transactionId: string): Promise<Mensagem[]> {
  const limite = Date.now() + 10_000;
  while (Date.now() < limite) {
    if ((await feed(usuarioId)).some((m) => m.transactionId === transactionId)) break;
    await dormir(50);
  }
  await dormir(300);
  return (await feed(usuarioId)).filter((m) => m.transactionId === transactionId);
}

/** A worker on the real Sino of this process, with short waits. */
const entregadorLocal = (opcoes: Partial<OpcoesDoEntregador> = {}) =>
  criarEntregadorDoOutbox({
    db: banco.db,
    sino: clienteSinoLocal(t.app, t.sino.apiKey),
    log: silencioso,
    esperaBaseMs: 20,
    esperaMaximaMs: 50,
    ...opcoes,
  });

/** Delivers until the row is marked, or gives up after a few seconds. */
async function entregarAte(
  entregador: ReturnType<typeof entregadorLocal>,
  id: number,
): Promise<LinhaDoOutbox> {
  const limite = Date.now() + 5000;
  for (;;) {
    await entregador.entregarPendentes();
    const linha = await eventoDaReserva(id);
    if (linha.entregue_em !== null || Date.now() > limite) return linha;
    await dormir(30);
  }
}

describe('outbox da Locadora', () => {
  it('Sino fora do ar quando a reserva é criada, depois de volta: chega exatamente um aviso', async () => {
    const cliente = await novoCliente({ nome: 'Clara Outbox' });
    // First nothing listens on Sino's address, then Sino answers 503 (starting, overloaded).
    const fechado: Server = createServer();
    await new Promise<void>((r) => fechado.listen(0, '127.0.0.1', r));
    const portaFechada = (fechado.address() as AddressInfo).port;
    await new Promise((r) => fechado.close(r));
    const indisponivel = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((r) => indisponivel.listen(0, '127.0.0.1', r));
    const porta503 = (indisponivel.address() as AddressInfo).port;

    try {
      const r = await reservar(cliente.token);
      expect(r.statusCode, r.body).toBe(201);
      const id = r.json<{ id_locacao: number }>().id_locacao;
      const evento = await eventoDaReserva(id);
      expect(evento).toMatchObject({ tentativas: 0, entregue_em: null });

      const fora = criarEntregadorDoOutbox({
        db: banco.db,
        sino: createSinoClient({ baseUrl: `http://127.0.0.1:${portaFechada}`, apiKey: 'x' }),
        log: silencioso,
        esperaBaseMs: 20,
        esperaMaximaMs: 50,
      });
      expect((await fora.entregarPendentes()).entregues).toBe(0);
      expect(await eventoDaReserva(id)).toMatchObject({
        tentativas: 1,
        entregue_em: null,
        ultimo_erro: expect.stringMatching(/^Sino não respondeu/),
      });

      await dormir(60);
      const ocupado = criarEntregadorDoOutbox({
        db: banco.db,
        sino: createSinoClient({
          baseUrl: `http://127.0.0.1:${porta503}`,
          apiKey: 'x',
          rateLimitRetries: 0,
        }),
        log: silencioso,
        esperaBaseMs: 20,
        esperaMaximaMs: 50,
      });
      expect((await ocupado.entregarPendentes()).entregues).toBe(0);
      expect(await eventoDaReserva(id)).toMatchObject({
        tentativas: 2,
        entregue_em: null,
        ultimo_erro: expect.stringMatching(/^Sino respondeu 503/),
      });
      expect(await feed(cliente.id)).toEqual([]);

      // Sino is back.
      const entregue = await entregarAte(entregadorLocal(), id);
      expect(entregue).toMatchObject({ tentativas: 3, ultimo_erro: null });
      expect(entregue.entregue_em).not.toBeNull();
      const mensagens = await mensagensDe(cliente.id, evento.id);
      expect(mensagens).toHaveLength(1);
      expect(mensagens[0]).toMatchObject({
        templateIdentifier: 'reserva-confirmada',
        cta: { data: { url: `/historico?contrato=${id}` } },
      });
      expect(mensagens[0]!.content).toContain(`LOC-${String(id).padStart(6, '0')}`);
      expect(mensagens[0]!.content).toContain('01/07/2030 às 10:00');

      // Nothing is sent again by later passes.
      expect((await entregadorLocal().entregarPendentes()).entregues).toBe(0);
      expect(await mensagensDe(cliente.id, evento.id)).toHaveLength(1);
    } finally {
      await new Promise((r) => indisponivel.close(r));
    }
  });

  it('lê o status e o código de cada evento na resposta do Sino, nunca as palavras', async () => {
    const cliente = await novoCliente({ nome: 'Celia Codigos' });
    // A Sino (a local peer) whose messages say nothing a program could match on: only the
    // status and the code tell what became of each event.
    let respostas: object[] = [];
    const par = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: respostas })),
      );
    });
    await new Promise<void>((r) => par.listen(0, '127.0.0.1', r));
    const entregadorDoPar = criarEntregadorDoOutbox({
      db: banco.db,
      sino: createSinoClient({
        baseUrl: `http://127.0.0.1:${(par.address() as AddressInfo).port}`,
        apiKey: 'x',
      }),
      log: silencioso,
      esperaBaseMs: 20,
      esperaMaximaMs: 50,
      tentativasSeRecusado: 1,
      lote: 1,
    });
    const casos: [object, Partial<LinhaDoOutbox> & { entregue: boolean }][] = [
      // Accepted before (a crash lost the answer): delivered.
      [
        { acknowledged: false, status: 'error', code: 'transaction_id_not_unique', error: ['ja'] },
        { entregue: true },
      ],
      // Sino failed by itself: tried again, whatever the attempts so far.
      [
        { acknowledged: false, status: 'error', code: 'internal_error', error: ['ops'] },
        { entregue: false, tentativas: 1, ultimo_erro: 'Sino recusou: error: internal_error: ops' },
      ],
      // The operator turned the workflow off in Sino: their choice, delivered as it is.
      [{ acknowledged: true, status: 'trigger_not_active' }, { entregue: true }],
    ];
    try {
      for (const [resposta, esperado] of casos) {
        const r = await reservar(cliente.token);
        expect(r.statusCode, r.body).toBe(201);
        const id = r.json<{ id_locacao: number }>().id_locacao;
        respostas = [{ transactionId: (await eventoDaReserva(id)).id, ...resposta }];
        await entregadorDoPar.entregarPendentes();
        const { entregue, ...campos } = esperado;
        const linha = await eventoDaReserva(id);
        expect(linha, JSON.stringify(resposta)).toMatchObject(campos);
        expect(linha.entregue_em !== null, JSON.stringify(resposta)).toBe(entregue);
        // Out of the way of the next case and of the other tests.
        await banco.db.execute(
          sql`update locadora.outbox set entregue_em = now() where id = ${linha.id}`,
        );
      }
    } finally {
      await new Promise((r) => par.close(r));
    }
  });

  it('uma reserva desfeita (o commit falha) não envia aviso nenhum', async () => {
    const cliente = await novoCliente({ nome: 'Rita Rollback' });
    // Checked at COMMIT, after the reservation and its event are both written.
    await banco.db.execute(
      sql.raw(`
        create function locadora.teste_falha_no_commit() returns trigger language plpgsql as $$
        begin
          if new.observacao = 'falhar no commit' then
            raise exception 'commit recusado pelo teste';
          end if;
          return null;
        end $$`),
    );
    await banco.db.execute(
      sql.raw(`
        create constraint trigger teste_falha_no_commit after insert on locadora.locacoes
          deferrable initially deferred for each row
          execute function locadora.teste_falha_no_commit()`),
    );
    try {
      const antes = (await linhasDoOutbox()).length;
      const r = await reservar(cliente.token, 'falhar no commit');
      expect(r.statusCode).toBe(500);
      expect(await linhasDoOutbox()).toHaveLength(antes);
      const lista = await t.chamar('GET', '/api/Locacao', { token: cliente.token });
      expect(lista.json()).toEqual([]);

      const entregador = entregadorLocal();
      await entregador.entregarPendentes();
      await dormir(300);
      expect(await feed(cliente.id)).toEqual([]);
    } finally {
      await banco.db.execute(sql.raw(`drop trigger teste_falha_no_commit on locadora.locacoes`));
      await banco.db.execute(sql.raw(`drop function locadora.teste_falha_no_commit()`));
    }
  });

  it('um entregador morto no meio da entrega não faz o aviso chegar duas vezes', async () => {
    const cliente = await novoCliente({ nome: 'Davi Derrubado' });
    const r = await reservar(cliente.token);
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json<{ id_locacao: number }>().id_locacao;
    const evento = await eventoDaReserva(id);

    // This worker dies right after Sino accepted the trigger: its answer never comes back,
    // so the row is not marked, and its claim (1.5 s here) is all that protects the row.
    let aceito!: () => void;
    const sinoAceitou = new Promise<void>((r) => (aceito = r));
    const morto = criarEntregadorDoOutbox({
      db: banco.db,
      sino: createSinoClient({
        baseUrl: 'http://sino.local',
        apiKey: t.sino.apiKey,
        fetch: async (request: Request) => {
          const resposta = await fetchLocal(t.app)(request);
          expect(resposta.status).toBe(201);
          aceito();
          return new Promise<Response>(() => {});
        },
      }),
      log: silencioso,
      reservaSegundos: 1.5,
    });
    const inicio = Date.now();
    void morto.entregarPendentes();
    await sinoAceitou;

    // Another worker leaves the row alone while the claim lasts…
    const outro = entregadorLocal();
    await outro.entregarPendentes();
    expect(await eventoDaReserva(id)).toMatchObject({ tentativas: 1, entregue_em: null });
    expect(await mensagensDe(cliente.id, evento.id)).toHaveLength(1);

    // …then sends it again: Sino refuses the transactionId it already has, the row is marked.
    await dormir(inicio + 1600 - Date.now());
    const linha = await entregarAte(outro, id);
    expect(linha).toMatchObject({ tentativas: 2, ultimo_erro: null });
    expect(linha.entregue_em).not.toBeNull();
    expect(await mensagensDe(cliente.id, evento.id)).toHaveLength(1);
  });

  // A real process, killed with SIGKILL: two processes share the database on PostgreSQL only.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'um processo entregador morto (SIGKILL) depois que o Sino aceitou: o aviso chega uma vez só',
    async () => {
      const cliente = await novoCliente({ nome: 'Kátia Kill' });
      const r = await reservar(cliente.token);
      expect(r.statusCode, r.body).toBe(201);
      const id = r.json<{ id_locacao: number }>().id_locacao;
      const evento = await eventoDaReserva(id);

      // Sino as the child sees it: the trigger reaches the real one, its answer never returns.
      let aceito!: () => void;
      const sinoAceitou = new Promise<void>((r) => (aceito = r));
      const intermediario = createServer((req, res) => {
        const partes: Buffer[] = [];
        req.on('data', (p: Buffer) => partes.push(p));
        req.on('end', () => {
          const pedido = new Request(`http://sino.local${req.url}`, {
            method: req.method,
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(partes),
          });
          void fetchLocal(t.app)(pedido).then((resposta) => {
            if (resposta.status === 201) aceito();
            else res.writeHead(resposta.status).end();
          });
        });
      });
      await new Promise<void>((r) => intermediario.listen(0, '127.0.0.1', r));
      const porta = (intermediario.address() as AddressInfo).port;
      const filho = spawn(
        process.execPath,
        [
          '--conditions=source',
          '--import',
          'tsx',
          fileURLToPath(new URL('./entregador-filho.ts', import.meta.url)),
        ],
        {
          env: {
            PATH: process.env.PATH ?? '',
            FILHO_DATABASE_URL: t.urlDoBanco!,
            FILHO_SINO_URL: `http://127.0.0.1:${porta}`,
            FILHO_SINO_API_KEY: t.sino.apiKey,
            FILHO_RESERVA_SEGUNDOS: '2',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const saiu = new Promise((r) => filho.once('exit', r));
      try {
        await sinoAceitou;
        const morto = Date.now();
        filho.kill('SIGKILL');
        await saiu;
        expect(await eventoDaReserva(id)).toMatchObject({ tentativas: 1, entregue_em: null });
        expect(await mensagensDe(cliente.id, evento.id)).toHaveLength(1);

        // Once the dead process's claim runs out, this worker sends it again: Sino answers 409.
        await dormir(morto + 2100 - Date.now());
        const linha = await entregarAte(entregadorLocal(), id);
        expect(linha).toMatchObject({ tentativas: 2, ultimo_erro: null });
        expect(linha.entregue_em).not.toBeNull();
        expect(await mensagensDe(cliente.id, evento.id)).toHaveLength(1);
      } finally {
        filho.kill('SIGKILL');
        intermediario.closeAllConnections();
        await new Promise((r) => intermediario.close(r));
      }
    },
  );

  it('eventos entregues há mais de 7 dias são apagados; os pendentes ficam', async () => {
    const cliente = await novoCliente({ nome: 'Lia Limpeza' });
    const [antigo, pendente] = [await reservar(cliente.token), await reservar(cliente.token)].map(
      (r) => r.json<{ id_locacao: number }>().id_locacao,
    );
    const linhaAntiga = await eventoDaReserva(antigo!);
    const linhaPendente = await eventoDaReserva(pendente!);
    await banco.db.execute(sql`
      update locadora.outbox set entregue_em = now() - interval '8 days' where id = ${linhaAntiga.id}`);
    await banco.db.execute(sql`
      update locadora.outbox set proxima_tentativa = now() + interval '1 hour'
       where id = ${linhaPendente.id}`);
    await banco.db.execute(sql`
      update locadora.outbox set criado_em = now() - interval '30 days' where id = ${linhaPendente.id}`);
    expect(await entregadorLocal().limparAntigos()).toBeGreaterThanOrEqual(1);
    expect(await linhasDoOutbox(sql`id = ${linhaAntiga.id}`)).toEqual([]);
    expect(await linhasDoOutbox(sql`id = ${linhaPendente.id}`)).toHaveLength(1);
    // Due again, and sent, so that it does not stay for the next test.
    await banco.db.execute(
      sql`update locadora.outbox set proxima_tentativa = now() where id = ${linhaPendente.id}`,
    );
    expect((await entregarAte(entregadorLocal(), pendente!)).entregue_em).not.toBeNull();
  });

  it('dois entregadores ao mesmo tempo não pegam o mesmo evento', async () => {
    const cliente = await novoCliente({ nome: 'Paulo Paralelo' });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await reservar(cliente.token);
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json<{ id_locacao: number }>().id_locacao);
    }
    const [a, b] = [entregadorLocal({ lote: 4 }), entregadorLocal({ lote: 4 })];
    let entregues = 0;
    for (let i = 0; i < 3 && entregues < 6; i++) {
      const [ra, rb] = await Promise.all([a.entregarPendentes(), b.entregarPendentes()]);
      // Each claims a batch at most (Sino refuses a bulk call of more than it allows).
      for (const r of [ra, rb])
        expect(r.entregues + r.adiados + r.descartados).toBeLessThanOrEqual(4);
      entregues += ra.entregues + rb.entregues;
    }
    expect(entregues).toBe(6);
    for (const id of ids) {
      const linha = await eventoDaReserva(id);
      // One claim each: no row was sent by both workers.
      expect(linha.tentativas).toBe(1);
      expect(await mensagensDe(cliente.id, linha.id)).toHaveLength(1);
    }
  });

  it('um evento que o Sino recusa não segura nem descarta os outros do mesmo lote', async () => {
    const cliente = await novoCliente({ nome: 'Lúcia Lote' });
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await reservar(cliente.token);
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json<{ id_locacao: number }>().id_locacao);
    }
    // Between them, an event whose payload Sino refuses for the whole call (400): nested
    // deeper than it stores.
    let fundo: Record<string, unknown> = { fim: true };
    for (let i = 0; i < 40; i++) fundo = { dentro: fundo };
    const [ruim] = (
      (await banco.db.execute(sql`
        insert into locadora.outbox (fluxo, usuario_id, payload, criado_em)
        values ('reserva-confirmada', ${cliente.id}, ${JSON.stringify(fundo)}::jsonb,
          (select criado_em from locadora.outbox where payload->>'id' = ${String(ids[0])}
             and fluxo = 'reserva-confirmada') + interval '1 millisecond')
        returning id`)) as { rows: { id: string }[] }
    ).rows;

    const r = await entregadorLocal({ lote: 10, tentativasSeRecusado: 1 }).entregarPendentes();
    expect(r).toMatchObject({ entregues: 2, descartados: 1 });
    for (const id of ids) {
      const linha = await eventoDaReserva(id);
      expect(linha).toMatchObject({ tentativas: 1, ultimo_erro: null });
      expect(await mensagensDe(cliente.id, linha.id)).toHaveLength(1);
    }
    const [recusado] = await linhasDoOutbox(sql`id = ${ruim!.id}`);
    expect(recusado!.entregue_em).toBeNull();
    expect(recusado!.ultimo_erro).toMatch(/^Sino respondeu 400/);
  });

  it('o commit de uma reserva acorda o entregador na hora, sem esperar a próxima consulta', async () => {
    const cliente = await novoCliente({ nome: 'Ana Aviso' });
    // A poll a minute apart: only the commit's NOTIFY can make the delivery prompt.
    const entregador = entregadorLocal({
      intervaloMs: 60_000,
      escutar: (canal, aoAvisar) => banco.listen(canal, aoAvisar),
    });
    entregador.iniciar();
    try {
      // The first pass runs at start; let it finish and the worker settle into its long wait.
      await dormir(500);
      const r = await reservar(cliente.token);
      expect(r.statusCode, r.body).toBe(201);
      const reservadaEm = Date.now();
      const id = r.json<{ id_locacao: number }>().id_locacao;
      await vi.waitFor(async () => expect((await eventoDaReserva(id)).entregue_em).not.toBeNull(), {
        timeout: 3000,
        interval: 20,
      });
      expect(Date.now() - reservadaEm).toBeLessThan(3000);
      expect(await mensagensDe(cliente.id, (await eventoDaReserva(id)).id)).toHaveLength(1);
    } finally {
      await entregador.parar();
    }
  });

  it('uma chave de API recusada (401) é avisada uma vez, sem perder nem contar os eventos', async () => {
    const cliente = await novoCliente({ nome: 'Rita Revogada' });
    // A second key of Locadora's environment, which the worker uses and the operator revokes.
    const comChave = (chave: string) => ({ authorization: `ApiKey ${chave}` });
    const nova = await t.app.inject({
      method: 'POST',
      url: '/v1/environments/api-keys',
      headers: comChave(t.sino.apiKey),
    });
    expect(nova.statusCode, nova.body).toBe(201);
    const chave = nova.json<{ data: { _id: string; key: string } }>().data;
    const segredos = testRunLog();
    segredos.knownSecrets('chave de API do Sino', [chave.key]);
    segredos.close();
    const revogar = await t.app.inject({
      method: 'DELETE',
      url: `/v1/environments/api-keys/${chave._id}`,
      headers: comChave(t.sino.apiKey),
    });
    expect(revogar.statusCode, revogar.body).toBe(200);

    const linhas: { nivel: string; campos: object; mensagem: string }[] = [];
    const registro = (nivel: string) => (campos: object, mensagem: string) =>
      linhas.push({ nivel, campos, mensagem });
    const log = { info: registro('info'), warn: registro('warn'), error: registro('error') };
    const recusado = criarEntregadorDoOutbox({
      db: banco.db,
      sino: clienteSinoLocal(t.app, chave.key),
      log,
      esperaChaveRecusadaMs: 50,
    });

    const r = await reservar(cliente.token);
    expect(r.statusCode, r.body).toBe(201);
    const id = r.json<{ id_locacao: number }>().id_locacao;
    // Three passes refused: the event kept, its attempts not counted, the operator told once.
    for (let passada = 0; passada < 3; passada++) {
      expect(await recusado.entregarPendentes()).toMatchObject({ entregues: 0, descartados: 0 });
      await dormir(60);
    }
    const guardado = await eventoDaReserva(id);
    expect(guardado).toMatchObject({
      tentativas: 0,
      entregue_em: null,
      ultimo_erro: expect.stringMatching(/^Sino respondeu 401/),
    });
    const erros = linhas.filter((l) => l.nivel === 'error');
    expect(erros).toHaveLength(1);
    expect(erros[0]!.mensagem).toMatch(/recusou a chave de API da Locadora \(401\)/);
    expect(erros[0]!.mensagem).toMatch(/SINO_API_KEY/);
    expect(JSON.stringify(linhas)).not.toContain(chave.key);
    expect(linhas.filter((l) => l.nivel === 'warn')).toEqual([]);
    expect(await recusado.pendencias()).toMatchObject({ chaveRecusada: true });
    expect(await feed(cliente.id)).toEqual([]);

    // A valid key (the operator set SINO_API_KEY): delivered once, and the refusal is over.
    const entregue = await entregarAte(entregadorLocal(), id);
    expect(entregue.entregue_em).not.toBeNull();
    expect(entregue.tentativas).toBe(1);
    expect(await mensagensDe(cliente.id, entregue.id)).toHaveLength(1);
  });

  it('a chave aceita de novo: o entregador diz que a recusa acabou', async () => {
    const linhas: { nivel: string; mensagem: string }[] = [];
    const registro = (nivel: string) => (_campos: object, mensagem: string) =>
      linhas.push({ nivel, mensagem });
    const cliente = await novoCliente({ nome: 'Rui Retorno' });
    let chaveAtual = 'chave-que-o-sino-nao-conhece-0123456789';
    // The same worker: its client reads the key at each call, as a fixed SINO_API_KEY would
    // be after the operator's fix and a reload.
    const entregador = criarEntregadorDoOutbox({
      db: banco.db,
      sino: createSinoClient({
        baseUrl: 'http://sino.local',
        apiKey: 'nao-usada',
        fetch: (pedido: Request) => {
          const comChave = new Request(pedido, {
            headers: {
              ...Object.fromEntries(pedido.headers),
              authorization: `ApiKey ${chaveAtual}`,
            },
          });
          return fetchLocal(t.app)(comChave);
        },
      }),
      log: { info: registro('info'), warn: registro('warn'), error: registro('error') },
      esperaChaveRecusadaMs: 20,
    });
    const r = await reservar(cliente.token);
    const id = r.json<{ id_locacao: number }>().id_locacao;
    await entregador.entregarPendentes();
    expect(linhas.map((l) => l.nivel)).toEqual(['error']);
    chaveAtual = t.sino.apiKey;
    await dormir(30);
    const entregue = await entregarAte(entregador, id);
    expect(entregue.entregue_em).not.toBeNull();
    expect(linhas.map((l) => l.nivel)).toEqual(['error', 'info']);
    expect(linhas[1]!.mensagem).toMatch(/voltou a aceitar a chave/);
    expect(await entregador.pendencias()).toMatchObject({ chaveRecusada: false });
  });
});
