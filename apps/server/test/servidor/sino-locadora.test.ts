import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLUXOS_LOCADORA, garantirFluxos, versaoDoFluxo } from '@locadora/api';
import { fluxoDoPapel, TAG_SOMENTE_EQUIPE } from '@locadora/contract/notificacoes';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { clienteSinoLocal } from '../../src/sino-local.js';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

const sino = (method: 'GET' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `ApiKey ${t.sino.apiKey}` },
    ...(payload && { payload }),
  });

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
    for (const fluxo of FLUXOS_LOCADORA)
      expect(byIdentifier.get(fluxo.identifier)?.active).toBe(true);
    expect(byIdentifier.get('multa-registrada')?.critical).toBe(true);
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
    const resultados = await garantirFluxos(clienteSinoLocal(t.app, t.sino.apiKey));
    expect(resultados.map((r) => r.acao)).toEqual(FLUXOS_LOCADORA.map(() => 'inalterado'));
    const depois = (await sino('GET', '/v1/workflows/reserva-cancelada')).json().data;
    expect(depois).toMatchObject({ name: 'Cancelamento (editado)', active: false });
    expect(depois.updatedAt).toBe(
      (await sino('GET', `/v1/workflows/${antes._id}`)).json().data.updatedAt,
    );
  });

  it('a definition changed in code is written once, keeping the active switch', async () => {
    const alterados = FLUXOS_LOCADORA.map((f) =>
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
    await expect(garantirFluxos(cliente)).rejects.toThrow(/fluxos da Locadora: 401.*API Key/);
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

  it('the staff-only workflows are exactly those only staff receive (their events go to the team alone)', () => {
    const somenteEquipe = FLUXOS_LOCADORA.filter((f) => f.tags?.includes(TAG_SOMENTE_EQUIPE));
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
  });
});
