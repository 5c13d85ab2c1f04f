import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluxosDaLocadora, garantirFluxos } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { clienteSinoLocal } from '../../src/sino-local.js';

let t: AppDeTeste;
const ENDERECO = 'https://locadora.example';
const FLUXOS = fluxosDaLocadora(ENDERECO);
beforeAll(async () => {
  t = await criarAppDeTeste({ ambiente: { PUBLIC_URL: ENDERECO } });
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
    for (const fluxo of FLUXOS) expect(byIdentifier.get(fluxo.identifier)?.active).toBe(true);
    expect(byIdentifier.get('multa-registrada')?.critical).toBe(true);
  });

  it('are brought up to date at a later start, keeping an operator’s active switch', async () => {
    const id = (await sino('GET', '/v1/workflows/reserva-cancelada')).json().data._id as string;
    expect((await sino('PUT', `/v1/workflows/${id}/status`, { active: false })).statusCode).toBe(
      200,
    );
    const resultados = await garantirFluxos(clienteSinoLocal(t.app, t.sino.apiKey), FLUXOS);
    expect(resultados.map((r) => r.acao)).toEqual(FLUXOS.map(() => 'atualizado'));
    const r = await sino('GET', '/v1/workflows/reserva-cancelada');
    expect(r.json().data.active).toBe(false);
  });

  it("email the customer about their reservation, with links on PUBLIC_URL (the sandbox's outbox on a fresh start)", async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      headers: { authorization: `ApiKey ${t.sino.apiKey}` },
      payload: {
        name: 'reserva-confirmada',
        to: { subscriberId: 'usuario-email-1', firstName: 'Ana', email: 'ana@example.com' },
        payload: {
          id: 42,
          contrato: 'LOC-000042',
          retirada: '01/12/2026 10:00',
          entrega: '05/12/2026 10:00',
          local: 'Aeroporto de Confins',
          total: 'R$ 640,00',
        },
      },
    });
    expect(r.statusCode).toBe(201);
    let emails: { to: string[]; subject: string; content: string; text: string }[] = [];
    for (let i = 0; i < 100 && emails.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      emails = (await sino('GET', '/v1/sandbox/outbox?channel=email')).json().data;
    }
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: ['ana@example.com'],
      subject: 'Reserva LOC-000042 confirmada',
    });
    expect(emails[0]!.content).toContain('href="https://locadora.example/historico?contrato=42"');
    expect(emails[0]!.text).toContain('Olá, Ana!');
    expect(emails[0]!.text).toContain('Total: R$ 640,00');
  });

  it('a refusal by Sino is an error saying what was refused, not a silent skip', async () => {
    const cliente = clienteSinoLocal(t.app, 'f'.repeat(64));
    await expect(garantirFluxos(cliente, FLUXOS)).rejects.toThrow(
      /fluxos da Locadora: 401.*API Key/,
    );
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
