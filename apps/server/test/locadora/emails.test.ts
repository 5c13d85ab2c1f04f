import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRunLog } from '@locadora/db/testing';
import { CONTAS_DEMO, idDoAssinante } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { HORA, relogioDeTeste } from './dados-de-teste.js';

/**
 * Issue 19: Locadora e-mails its customers through Sino, in Portuguese, inside its own layout,
 * with absolute links from PUBLIC_URL, and only to a confirmed address. Read where the
 * e-mails land: the sandbox outbox of Locadora's environment (a fresh start has no other
 * e-mail integration), through Sino's API.
 */

const URL_PUBLICA = 'https://locadora.exemplo.com.br';
const INICIO = relogioDeTeste();
let agora = INICIO;

let t: AppDeTeste;
let equipe: string;
let categoria: number;

interface Email {
  to: string[];
  subject: string | null;
  content: string;
  text: string | null;
}

const apiSino = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `ApiKey ${t.sino.apiKey}` } });

async function emailsPara(endereco: string): Promise<Email[]> {
  const r = await apiSino('/v1/sandbox/outbox?channel=email&limit=100');
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ data: Email[] }>().data.filter((e) => e.to.includes(endereco));
}

/** Waits (10 s at most) for an e-mail to `endereco` whose subject `assunto` matches. */
async function aguardarEmail(endereco: string, assunto: string | RegExp): Promise<Email> {
  const limite = Date.now() + 10_000;
  for (;;) {
    const e = (await emailsPara(endereco)).find((x) =>
      typeof assunto === 'string' ? x.subject === assunto : assunto.test(x.subject ?? ''),
    );
    if (e || Date.now() > limite) {
      expect(e, `e-mail "${String(assunto)}" não chegou a ${endereco}`).toBeDefined();
      return e!;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Mensagem {
  _id: string;
  _notificationId: string;
  templateIdentifier: string;
  content: string;
}

/** Waits (10 s at most) for the in-app message of that workflow in the account's bell. */
async function aguardarNoSino(usuarioId: number, fluxo: string): Promise<Mensagem> {
  const limite = Date.now() + 10_000;
  for (;;) {
    const r = await apiSino(
      `/v1/subscribers/${idDoAssinante(usuarioId)}/notifications/feed?limit=100`,
    );
    const m =
      r.statusCode === 200
        ? r.json<{ data: Mensagem[] }>().data.find((x) => x.templateIdentifier === fluxo)
        : undefined;
    if (m || Date.now() > limite) {
      expect(m, `${fluxo} não chegou ao sino de ${usuarioId}`).toBeDefined();
      return m!;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The link the confirmation e-mail carries, and its token (a secret of the run). */
function linkDeConfirmacao(e: Email): { link: string; token: string } {
  const achado = new RegExp(
    `href="(${URL_PUBLICA.replace(/\./g, '\\.')}/verificar-email\\?token=([A-Za-z0-9_-]+))"`,
  ).exec(e.content);
  expect(achado, e.content).not.toBeNull();
  testRunLog().knownSecrets('token de confirmação de e-mail', [achado![2]!]);
  return { link: achado![1]!, token: achado![2]! };
}

const verificar = (token: string) =>
  t.chamar('POST', '/api/Cadastro/verificar-email', { corpo: { token } });

/** Confirms the address through the link of the newest confirmation e-mail it received. */
async function confirmar(endereco: string): Promise<void> {
  const e = await aguardarEmail(endereco, 'Confirme seu e-mail na Locadora');
  const r = await verificar(linkDeConfirmacao(e).token);
  expect(r.statusCode, r.body).toBe(204);
}

const codigo = (id: number) => `LOC-${String(id).padStart(6, '0')}`;

const pedido = (dia: string) => ({
  id_local: 1,
  id_categoria: categoria,
  modelo_veiculo: 'Gol',
  data_retirada: dia,
  hora_retirada: '10:00',
  data_entrega: '2030-10-20',
  hora_entrega: '10:00',
  custos_ad: 0,
});

/** The layout's marks: Locadora's colour, the footer and its absolute preferences link. */
function noLayoutDaLocadora(e: Email): void {
  expect(e.content).toContain('<html lang="pt-BR">');
  expect(e.content).toContain('#0a4fd6');
  expect(e.content).toContain(`href="${URL_PUBLICA}/notificacoes"`);
  expect(e.content).toContain('Você recebe este e-mail porque este endereço está cadastrado');
}

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => agora, ambiente: { PUBLIC_URL: URL_PUBLICA } });
  equipe = await t.tokenDe('funcionario');
  categoria = (await t.chamar('GET', '/api/Categorias', { token: equipe }))
    .json<{ id_categoria: number; desc_categoria: string }[]>()
    .find((c) => c.desc_categoria === 'Hatches')!.id_categoria;
});
afterAll(() => t?.fechar());

describe('confirmação do e-mail', () => {
  it('o cadastro envia o link ao endereço ainda não confirmado, no layout da Locadora; o link vale uma vez', async () => {
    const cliente = await t.novoCliente({ nome: 'Clara Confirmação' });
    expect((await t.chamar('GET', '/api/me', { token: cliente.token })).json()).toMatchObject({
      emailVerificado: false,
    });
    const e = await aguardarEmail(cliente.email, 'Confirme seu e-mail na Locadora');
    noLayoutDaLocadora(e);
    expect(e.content).toContain('Olá, Clara Confirmação!');
    expect(e.content).toContain('O link vale por 24 horas');
    const { link, token } = linkDeConfirmacao(e);
    expect(link.startsWith(`${URL_PUBLICA}/verificar-email?token=`)).toBe(true);
    // The link went to a subscriber of its own: the account's own (the bell's) was not even
    // made, so it never held the unconfirmed address.
    const daVerificacao = await apiSino(`/v1/subscribers/verificacao-usuario-${cliente.id}`);
    expect(daVerificacao.json().data.email).toBe(cliente.email);
    expect((await apiSino(`/v1/subscribers/${idDoAssinante(cliente.id)}`)).statusCode).not.toBe(
      200,
    );

    expect((await verificar(token)).statusCode).toBe(204);
    expect((await t.chamar('GET', '/api/me', { token: cliente.token })).json()).toMatchObject({
      emailVerificado: true,
    });
    // Once: the same link again is refused, and so is a second request for a new one.
    const segunda = await verificar(token);
    expect(segunda.statusCode).toBe(400);
    expect(segunda.json().message).toMatch(/não vale mais/);
    expect(segunda.body).not.toContain(token);
    const reenvio = await t.chamar('POST', '/api/me/verificacao-de-email', {
      token: cliente.token,
    });
    expect(reenvio.statusCode).toBe(409);
  });

  it('o mesmo link usado duas vezes ao mesmo tempo confirma uma só vez', async () => {
    const cliente = await t.novoCliente();
    const { token } = linkDeConfirmacao(
      await aguardarEmail(cliente.email, 'Confirme seu e-mail na Locadora'),
    );
    const respostas = await Promise.all([verificar(token), verificar(token), verificar(token)]);
    expect(respostas.map((r) => r.statusCode).sort()).toEqual([204, 400, 400]);
  });

  it('reenviar: um por minuto; o novo link substitui o anterior; um link expira em 24 horas', async () => {
    const cliente = await t.novoCliente();
    const primeiro = linkDeConfirmacao(
      await aguardarEmail(cliente.email, 'Confirme seu e-mail na Locadora'),
    );
    const reenviar = (token?: string) =>
      t.chamar('POST', '/api/me/verificacao-de-email', token ? { token } : {});
    expect((await reenviar()).statusCode).toBe(401);
    const cedo = await reenviar(cliente.token);
    expect(cedo.statusCode).toBe(429);
    expect(cedo.json().message).toMatch(/Aguarde \d+ s/);

    agora = new Date(INICIO.getTime() + 61_000);
    try {
      expect((await reenviar(cliente.token)).statusCode).toBe(204);
      const limite = Date.now() + 10_000;
      let segundo: { token: string } | undefined;
      while (!segundo && Date.now() < limite) {
        const todos = await emailsPara(cliente.email);
        if (todos.length >= 2) segundo = linkDeConfirmacao(todos[0]!);
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(segundo?.token).toBeDefined();
      expect(segundo!.token).not.toBe(primeiro.token);
      // The first link was replaced.
      expect((await verificar(primeiro.token)).statusCode).toBe(400);
      // The second one, past its 24 hours, no longer works (and is used up by the attempt).
      agora = new Date(INICIO.getTime() + 25 * HORA);
      expect((await verificar(segundo!.token)).statusCode).toBe(400);
    } finally {
      agora = INICIO;
    }
    const token = await t.entrar(cliente.email, cliente.senha);
    expect((await t.chamar('GET', '/api/me', { token })).json().emailVerificado).toBe(false);
  });

  it('um token malformado é um 400 e nada muda', async () => {
    const cliente = await t.novoCliente();
    const { token } = linkDeConfirmacao(
      await aguardarEmail(cliente.email, 'Confirme seu e-mail na Locadora'),
    );
    for (const ruim of ['', 'curto', 'x'.repeat(201), '<script>alert(1)</script>aaaaaaaaaaaa'])
      expect((await verificar(ruim)).statusCode).toBe(400);
    expect(
      (await t.chamar('POST', '/api/Cadastro/verificar-email', { corpo: {} })).statusCode,
    ).toBe(400);
    // Nothing was written: the account is still unconfirmed and its link still works.
    expect((await t.chamar('GET', '/api/me', { token: cliente.token })).json()).toMatchObject({
      emailVerificado: false,
    });
    expect((await verificar(token)).statusCode).toBe(204);
  });
});

describe('e-mails das reservas e das multas', () => {
  it('confirmada, alterada e cancelada: e-mails ao cliente confirmado; nenhum ao não confirmado, que recebe só o aviso no sino', async () => {
    const confirmado = await t.novoCliente({ nome: 'Vera Verificada' });
    await confirmar(confirmado.email);
    const semConfirmar = await t.novoCliente({ nome: 'Ulisses Unverified' });

    const dele = await t.chamar('POST', '/api/Locacao', {
      token: semConfirmar.token,
      corpo: pedido('2030-10-14'),
    });
    expect(dele.statusCode, dele.body).toBe(201);
    const criada = await t.chamar('POST', '/api/Locacao', {
      token: confirmado.token,
      corpo: pedido('2030-10-15'),
    });
    expect(criada.statusCode, criada.body).toBe(201);
    const id = criada.json<{ id_locacao: number }>().id_locacao;

    const confirmacao = await aguardarEmail(confirmado.email, `Reserva ${codigo(id)} confirmada`);
    noLayoutDaLocadora(confirmacao);
    expect(confirmacao.content).toContain('Olá, Vera Verificada!');
    expect(confirmacao.content).toContain(
      `Sua reserva <strong>${codigo(id)}</strong> foi confirmada.`,
    );
    expect(confirmacao.content).toContain('Retirada: 15/10/2030 às 10:00');
    expect(confirmacao.content).toContain(`href="${URL_PUBLICA}/historico?contrato=${id}"`);
    expect(confirmacao.text).toContain('Ver a reserva');

    // The unconfirmed customer: the bell has it, and Sino skipped the e-mail step for want of
    // an address (its execution log says so); the outbox has no e-mail to that address.
    const noSino = await aguardarNoSino(semConfirmar.id, 'reserva-confirmada');
    const limite = Date.now() + 10_000;
    let doEmail: { detail: string; status: string } | undefined;
    while (!doEmail && Date.now() < limite) {
      const r = await apiSino(
        `/v1/execution-details?notificationId=${noSino._notificationId}&subscriberId=${idDoAssinante(semConfirmar.id)}`,
      );
      expect(r.statusCode, r.body).toBe(200);
      doEmail = r
        .json<{ data: { channel: string | null; detail: string; status: string }[] }>()
        .data.find((d) => d.channel === 'email' && /email address/.test(d.detail));
      if (!doEmail) await new Promise((r) => setTimeout(r, 50));
    }
    expect(doEmail?.detail).toBe('Subscriber has no email address');
    expect(await emailsPara(semConfirmar.email)).toEqual([
      // Only the sign-up's confirmation link.
      expect.objectContaining({ subject: 'Confirme seu e-mail na Locadora' }),
    ]);

    const alterada = await t.chamar('PUT', `/api/Locacao/${id}`, {
      token: confirmado.token,
      corpo: pedido('2030-10-16'),
    });
    expect(alterada.statusCode, alterada.body).toBe(200);
    const alteracao = await aguardarEmail(confirmado.email, `Reserva ${codigo(id)} alterada`);
    noLayoutDaLocadora(alteracao);
    expect(alteracao.content).toContain('Retirada: 16/10/2030 às 10:00');
    expect(alteracao.content).toContain(`href="${URL_PUBLICA}/historico?contrato=${id}"`);

    const cancelada = await t.chamar('DELETE', `/api/Locacao/${id}`, { token: confirmado.token });
    expect(cancelada.statusCode, cancelada.body).toBe(200);
    const cancelamento = await aguardarEmail(confirmado.email, `Reserva ${codigo(id)} cancelada`);
    noLayoutDaLocadora(cancelamento);
    expect(cancelamento.content).toContain('com retirada em 16/10/2030 às 10:00');
    expect(cancelamento.content).toContain(`href="${URL_PUBLICA}/historico?contrato=${id}"`);
  });

  it('multa registrada: e-mail ao cliente confirmado, com o que veio do cadastro escapado', async () => {
    // The demo customer (seeded, never confirmed) asks for the link, then confirms.
    const demo = CONTAS_DEMO.find((c) => c.papel === 'cliente')!;
    const token = await t.tokenDe('cliente');
    expect((await t.chamar('POST', '/api/me/verificacao-de-email', { token })).statusCode).toBe(
      204,
    );
    await confirmar(demo.email);

    const [multa] = (await t.chamar('GET', '/api/infracoes?limite=100', { token: equipe })).json<
      { placa: string; id_locacao: number; data: string }[]
    >();
    const r = await t.chamar('POST', '/api/infracoes', {
      token: equipe,
      corpo: {
        placa: multa!.placa,
        data_hora: new Date(new Date(multa!.data).getTime() + HORA).toISOString(),
        descricao: '<script>alert("x")</script> Avançar o sinal vermelho',
        valor: 293.47,
        local: 'Av. Afonso Pena, 1500 - Belo Horizonte',
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const contrato = r.json<{ id_locacao: number }>().id_locacao;
    const e = await aguardarEmail(demo.email, `Multa registrada no contrato ${codigo(contrato)}`);
    noLayoutDaLocadora(e);
    expect(e.content).toContain('Avançar o sinal vermelho');
    expect(e.content).not.toContain('<script>');
    expect(e.content).toContain('&lt;script&gt;');
    expect(e.content).toContain('R$');
    expect(e.content).toContain(`href="${URL_PUBLICA}/infracoes?contrato=${contrato}"`);
  });
});
