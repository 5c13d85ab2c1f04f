import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fluxosDaLocadora,
  garantirFluxos,
  garantirNotificacoes,
  IDENTIFICADORES_DOS_FLUXOS,
  versaoDoFluxo,
} from '@locadora/api';
import { fluxoDoPapel, TAG_SOMENTE_EQUIPE } from '@locadora/contract/notificacoes';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { clienteSinoLocal } from '../../src/sino-local.js';

const URL_PUBLICA = 'https://locadora.exemplo.com.br';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste({ ambiente: { PUBLIC_URL: URL_PUBLICA } });
});
afterAll(() => t.fechar());

const sino = (method: 'GET' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `ApiKey ${t.sino.apiKey}` },
    ...(payload && { payload }),
  });

/** Locadora's layout as Sino has it. */
async function layoutNoSino() {
  const r = await sino('GET', '/v1/layouts?pageSize=100');
  expect(r.statusCode).toBe(200);
  return (
    r.json().data as { _id: string; identifier: string; content: string; description: string }[]
  ).find((l) => l.identifier === 'locadora')!;
}

/** The definitions the app wrote: its public URL and the id of its layout in Sino. */
const fluxosDoApp = async () =>
  fluxosDaLocadora({ urlPublica: URL_PUBLICA, layoutId: (await layoutNoSino())._id });

describe("Locadora's workflows in Sino", () => {
  it('are created, active, at the first start', async () => {
    const r = await sino('GET', '/v1/workflows?limit=100');
    expect(r.statusCode).toBe(200);
    const workflows = r.json().data as {
      triggers: { identifier: string }[];
      active: boolean;
      critical: boolean;
    }[];
    const byIdentifier = new Map(workflows.map((w) => [w.triggers[0]!.identifier, w]));
    for (const identificador of IDENTIFICADORES_DOS_FLUXOS)
      expect(byIdentifier.get(identificador)?.active).toBe(true);
    expect(byIdentifier.get('multa-registrada')?.critical).toBe(true);
  });

  it("with Locadora's layout, whose e-mail steps name it, links built from PUBLIC_URL", async () => {
    const layout = await layoutNoSino();
    expect(layout.content).toContain('{{{body}}}');
    expect(layout.content).toContain(`href="${URL_PUBLICA}/notificacoes"`);
    expect(layout.content).toContain('#0a4fd6');
    for (const identificador of [
      'reserva-confirmada',
      'reserva-alterada',
      'reserva-cancelada',
      'multa-registrada',
    ]) {
      const w = (await sino('GET', `/v1/workflows/${identificador}`)).json().data as {
        steps: { template: { type: string; _layoutId?: string | null; content: unknown } }[];
      };
      expect(w.steps.map((p) => p.template.type)).toEqual(['in_app', 'email']);
      expect(w.steps[1]!.template._layoutId).toBe(layout._id);
      expect(String(w.steps[1]!.template.content)).toContain(`href="${URL_PUBLICA}/`);
    }
  });

  it('a later start writes nothing: an edit made in Sino stays', async () => {
    const antes = (await sino('GET', '/v1/workflows/reserva-cancelada')).json().data;
    // An operator renames the workflow and turns it off in Sino.
    expect(
      (await sino('PUT', `/v1/workflows/${antes._id}`, { name: 'Cancelamento (editado)' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await sino('PUT', `/v1/workflows/${antes._id}/status`, { active: false })).statusCode,
    ).toBe(200);
    const resultados = await garantirNotificacoes(clienteSinoLocal(t.app, t.sino.apiKey), {
      urlPublica: URL_PUBLICA,
    });
    expect(resultados.layout).toBe('inalterado');
    expect(resultados.fluxos.map((r) => r.acao)).toEqual(
      IDENTIFICADORES_DOS_FLUXOS.map(() => 'inalterado'),
    );
    const depois = (await sino('GET', '/v1/workflows/reserva-cancelada')).json().data;
    expect(depois).toMatchObject({ name: 'Cancelamento (editado)', active: false });
    expect(depois.updatedAt).toBe(
      (await sino('GET', `/v1/workflows/${antes._id}`)).json().data.updatedAt,
    );
  });

  it('a definition changed in code is written once, keeping the active switch', async () => {
    const alterados = (await fluxosDoApp()).map((f) =>
      f.identifier === 'reserva-cancelada' ? { ...f, description: 'Nova descrição.' } : f,
    );
    const cliente = clienteSinoLocal(t.app, t.sino.apiKey);
    const resultados = await garantirFluxos(cliente, alterados);
    expect(resultados.filter((r) => r.acao !== 'inalterado')).toEqual([
      { identifier: 'reserva-cancelada', acao: 'atualizado' },
    ]);
    const w = (await sino('GET', '/v1/workflows/reserva-cancelada')).json().data;
    expect(w).toMatchObject({
      name: 'Reserva cancelada',
      description: 'Nova descrição.',
      active: false,
      data: {
        versaoDaLocadora: versaoDoFluxo(
          alterados.find((f) => f.identifier === 'reserva-cancelada')!,
        ),
      },
    });
    // Once written, the same definition is not written again.
    expect((await garantirFluxos(cliente, alterados)).every((r) => r.acao === 'inalterado')).toBe(
      true,
    );
  });

  it('a refusal by Sino is an error saying what was refused, not a silent skip', async () => {
    const cliente = clienteSinoLocal(t.app, 'f'.repeat(64));
    await expect(garantirFluxos(cliente, await fluxosDoApp())).rejects.toThrow(
      /fluxos da Locadora: 401.*API Key/,
    );
    await expect(garantirNotificacoes(cliente, { urlPublica: URL_PUBLICA })).rejects.toThrow(
      /layouts da Locadora: 401.*API Key/,
    );
  });

  it('an edit of the layout made in Sino stays until the code changes it (another PUBLIC_URL)', async () => {
    const antes = await layoutNoSino();
    const editado = await t.app.inject({
      method: 'PATCH',
      url: `/v1/layouts/${antes._id}`,
      headers: { authorization: `ApiKey ${t.sino.apiKey}` },
      payload: { name: 'Locadora (editado)' },
    });
    expect(editado.statusCode, editado.body).toBe(200);
    const cliente = clienteSinoLocal(t.app, t.sino.apiKey);
    const mesma = await garantirNotificacoes(cliente, { urlPublica: URL_PUBLICA });
    expect(mesma.layout).toBe('inalterado');
    expect((await sino('GET', `/v1/layouts/${antes._id}`)).json().data.name).toBe(
      'Locadora (editado)',
    );

    const outra = 'https://outra.exemplo.com.br/locadora';
    const mudou = await garantirNotificacoes(cliente, { urlPublica: outra });
    expect(mudou.layout).toBe('atualizado');
    const depois = await layoutNoSino();
    expect(depois._id).toBe(antes._id);
    expect(depois.content).toContain(`href="${outra}/notificacoes"`);
    expect((await sino('GET', `/v1/layouts/${antes._id}`)).json().data.name).toBe('Locadora');
    // The e-mail steps link into the new address too; their workflows were rewritten once.
    expect(mudou.fluxos.find((f) => f.identifier === 'reserva-confirmada')?.acao).toBe(
      'atualizado',
    );
    const deNovo = await garantirNotificacoes(cliente, { urlPublica: outra });
    expect(deNovo.layout).toBe('inalterado');
    expect(deNovo.fluxos.every((f) => f.acao === 'inalterado')).toBe(true);
    // Back to the app's address, for the tests after this one.
    await garantirNotificacoes(cliente, { urlPublica: URL_PUBLICA });
  });
});

describe("the bell's preferences (issue 17, 13 j)", () => {
  /** The workflows the bell lists for an account: Sino's answer, filtered as Campainha does. */
  async function naCampainha(token: string, papel: 'cliente' | 'funcionario' | 'admin') {
    const sessao = (await t.chamar('GET', '/api/me/notificacoes', { token })).json() as {
      applicationIdentifier: string;
      subscriberId: string;
      subscriberHash: string;
    };
    const inicio = await t.app.inject({
      method: 'POST',
      url: '/v1/widgets/session/initialize',
      payload: {
        applicationIdentifier: sessao.applicationIdentifier,
        subscriberId: sessao.subscriberId,
        hmacHash: sessao.subscriberHash,
      },
    });
    expect(inicio.statusCode, inicio.body).toBe(201);
    const r = await t.app.inject({
      method: 'GET',
      url: '/v1/widgets/preferences',
      headers: { authorization: `Bearer ${inicio.json().data.token as string}` },
    });
    const preferencias = r.json().data as {
      template: { name: string; tags: string[]; critical: boolean };
    }[];
    return preferencias
      .filter((p) => !p.template.critical && fluxoDoPapel(papel, p.template.tags))
      .map((p) => p.template.name)
      .sort();
  }

  it('a customer sees every workflow it may receive, not the staff-only review; staff see it too', async () => {
    const cliente = await t.novoCliente();
    const paraCliente = await naCampainha(cliente.token, 'cliente');
    expect(paraCliente).not.toContain('Avaliação recebida');
    expect(paraCliente).toEqual(
      expect.arrayContaining(['Reserva confirmada', 'Vistoria registrada', 'Notificação de teste']),
    );
    const paraEquipe = await naCampainha(await t.tokenDe('funcionario'), 'funcionario');
    expect(paraEquipe).toContain('Avaliação recebida');
    expect(paraEquipe).toEqual(expect.arrayContaining(paraCliente));
  });

  it('the staff-only workflows are exactly those only staff receive (their events go to the team alone)', async () => {
    const somenteEquipe = (await fluxosDoApp()).filter((f) => f.tags?.includes(TAG_SOMENTE_EQUIPE));
    expect(somenteEquipe.map((f) => f.identifier)).toEqual(['avaliacao-recebida']);
  });
});

describe("Sino's rate limits", () => {
  it('come from SINO_RATE_LIMIT_TRIGGERS and SINO_RATE_LIMIT_GENERAL', async () => {
    const limitado = await criarAppDeTeste({
      ambiente: { SINO_RATE_LIMIT_TRIGGERS: '2', SINO_RATE_LIMIT_GENERAL: '7' },
    });
    try {
      const chamar = (url: string) =>
        limitado.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `ApiKey ${limitado.sino.apiKey}` },
        });
      const r = await chamar('/v1/workflows?limit=1');
      expect(r.statusCode).toBe(200);
      expect(r.headers['ratelimit-limit']).toBe('7');
      // Two triggers a second, plus Novu's 10% burst rounded down: the third is refused.
      const disparar = () =>
        limitado.app.inject({
          method: 'POST',
          url: '/v1/events/trigger',
          headers: { authorization: `ApiKey ${limitado.sino.apiKey}` },
          payload: { name: 'nenhum', to: 'ninguem' },
        });
      const respostas = [await disparar(), await disparar(), await disparar()];
      expect(respostas.map((x) => x.headers['ratelimit-limit'])).toEqual(['2', '2', '2']);
      expect(respostas[2]!.statusCode).toBe(429);
    } finally {
      await limitado.fechar();
    }
  }, 90_000); // an app of its own started in the test: three times the default, for a loaded machine
});
