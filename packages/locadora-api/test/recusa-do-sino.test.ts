import { describe, expect, it } from 'vitest';
import { recusa } from '../src/notificacoes/versionados.js';

const resposta = (status: number) => new Response(null, { status });

describe("Sino's refusal of Locadora's definitions", () => {
  it('names what was attempted, the status and Sino’s message', () => {
    const erro = recusa('criar o fluxo reserva-confirmada', {
      response: resposta(400),
      error: { message: 'name must be shorter' },
    });
    expect(erro.message).toBe(
      'Sino não deixou criar o fluxo reserva-confirmada: 400 {"message":"name must be shorter"}',
    );
  });

  it('tells a Production key how its definitions get there: by promotion', () => {
    const erro = recusa('atualizar o fluxo reserva-confirmada', {
      response: resposta(401),
      error: { statusCode: 401, message: 'This action is only allowed in Development environment' },
    });
    expect(erro.message).toMatch(/^Sino não deixou atualizar o fluxo reserva-confirmada: 401 /);
    expect(erro.message).toContain('só muda por promoção');
    expect(erro.message).toContain('POST /v1/changes/bulk/apply');
  });

  it('says nothing of promotion for a key Sino does not know', () => {
    const erro = recusa('listar os fluxos', {
      response: resposta(401),
      error: { message: 'API Key not found' },
    });
    expect(erro.message).not.toContain('promoção');
  });
});
