import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpfDeTeste, criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { dataLocalBr, diaLocal, relogioDeTeste } from './dados-de-teste.js';

interface Exportacao {
  geradoEm: string;
  titular: Record<string, unknown>;
  locacoes: {
    id_locacao: number;
    status: string;
    diarias: number;
    vl_categoria: number;
    custos_ad: number;
    vl_total: number;
    placa: string | null;
    retirada_prevista: string;
  }[];
  infracoes: { id_infracao: number; id_locacao: number | null; descricao: string }[];
  avaliacoes: { id_avaliacao: number; titulo: string; email?: string | null }[];
  sessoes: { criadaEm: string; expiraEm: string; revogadaEm: string | null }[];
}

const AGORA = relogioDeTeste();

let t: AppDeTeste;
let equipe: string;

const exportar = async (token: string) => {
  const r = await t.chamar('GET', '/api/me/dados', { token });
  expect(r.statusCode, r.body).toBe(200);
  return r;
};

const avaliar = async (token: string, dados: Record<string, unknown>) => {
  const r = await t.chamar('POST', '/api/Avaliacao', {
    token,
    corpo: { nota: 5, observacao: 'Tudo certo.', ...dados },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json<{ id_avaliacao: number }>();
};

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => AGORA });
  equipe = await t.tokenDe('funcionario');
});
afterAll(() => t?.fechar());

describe('GET /api/me/dados', () => {
  it('answers 401 without a token', async () => {
    const r = await t.chamar('GET', '/api/me/dados');
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('Faça login para continuar.');
  });

  it("downloads the holder's profile and reviews as a JSON file, never the password", async () => {
    const cpf = cpfDeTeste(9_001);
    const titular = await t.novoCliente({ nome: 'Joana Titular', cpf });
    const vizinho = await t.novoCliente();
    const propria = await avaliar(titular.token, {
      titulo: 'Minha avaliação',
      email: 'contato.joana@example.com',
      telefone: '31 3333-4444',
    });
    await avaliar(vizinho.token, { titulo: 'Avaliação do vizinho' });

    const r = await exportar(titular.token);
    expect(r.headers['content-disposition']).toBe(
      'attachment; filename="meus-dados-locadora.json"',
    );
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body).not.toMatch(/argon2/i);
    expect(r.body).not.toMatch(/senha/i);

    const dados = r.json<Exportacao>();
    expect(dados.geradoEm).toBe(AGORA.toISOString());
    expect(dados.titular).toEqual({
      id: titular.id,
      nome: 'Joana Titular',
      email: titular.email,
      papel: 'cliente',
      dataNascimento: '1992-03-04',
      cpf,
      telefone: '31998765432',
      categoriaHabilitacao: 'B',
      rua: 'Rua dos Timbiras',
      numero: '1200',
      bairro: 'Funcionários',
      cidade: 'Belo Horizonte',
      municipio: 'Belo Horizonte',
      endereco: 'Rua dos Timbiras, 1200, Funcionários, Belo Horizonte, Belo Horizonte',
      emailVerificado: false,
      criadoEm: expect.any(String),
    });
    expect(dados.locacoes).toEqual([]);
    expect(dados.infracoes).toEqual([]);
    // Only the holder's own review, with the contact data they left.
    expect(dados.avaliacoes).toEqual([
      expect.objectContaining({
        id_avaliacao: propria.id_avaliacao,
        titulo: 'Minha avaliação',
        email: 'contato.joana@example.com',
        telefone: '3133334444',
      }),
    ]);
    expect(dados.sessoes.length).toBeGreaterThanOrEqual(1);
    expect(dados.sessoes[0]).toMatchObject({ revogadaEm: null });
  });

  it("exports a customer's reservations with values and status, and the fines of their contracts", async () => {
    // The seeded fine is on one of the demo customer's contracts; add one more on that contract
    // and one that no contract covers (the company's own).
    const [semeada] = (await t.chamar('GET', '/api/infracoes', { token: equipe })).json<
      { id_infracao: number; placa: string; data: string; id_locacao: number }[]
    >();
    const registrar = async (dados: Record<string, unknown>) => {
      const r = await t.chamar('POST', '/api/infracoes', {
        token: equipe,
        corpo: {
          descricao: 'Estacionar na calçada',
          valor: 88.38,
          local: 'Rua Sergipe, 100',
          ...dados,
        },
      });
      expect(r.statusCode, r.body).toBe(201);
      return r.json<{ id_infracao: number; id_locacao: number | null }>();
    };
    const noContrato = await registrar({
      placa: semeada!.placa,
      data_hora: new Date(new Date(semeada!.data).getTime() + 3_600_000).toISOString(),
    });
    expect(noContrato.id_locacao).toBe(semeada!.id_locacao);
    const daLocadora = await registrar({
      placa: 'QWC-1074',
      data_hora: `${diaLocal(AGORA, -3)}T10:00:00-03:00`,
    });
    expect(daLocadora.id_locacao).toBeNull();

    const cliente = await t.tokenDe('cliente');
    const dados = (await exportar(cliente)).json<Exportacao>();
    expect(dados.titular).toMatchObject({ email: 'cliente@locadora.dev', cpf: '52998224725' });

    // The seeded history: eleven reservations in every status, newest pickup first.
    expect(dados.locacoes).toHaveLength(11);
    expect(new Set(dados.locacoes.map((l) => l.status))).toEqual(
      new Set(['reservada', 'retirada', 'devolvida', 'cancelada']),
    );
    const retiradas = dados.locacoes.map((l) => l.retirada_prevista);
    expect(retiradas).toEqual([...retiradas].sort().reverse());
    for (const l of dados.locacoes) {
      expect(l.vl_total).toBeCloseTo(l.vl_categoria * l.diarias + l.custos_ad, 2);
      expect(l.placa === null).toBe(l.status === 'reservada' || l.status === 'cancelada');
    }

    expect(dados.infracoes.map((i) => i.id_infracao).sort()).toEqual(
      [semeada!.id_infracao, noContrato.id_infracao].sort(),
    );
    const idsDosContratos = dados.locacoes.map((l) => l.id_locacao);
    for (const i of dados.infracoes) expect(idsDosContratos).toContain(i.id_locacao);

    expect(dados.avaliacoes.map((a) => a.titulo).sort()).toEqual([
      'Atendimento excelente',
      'Bom, mas a fila...',
    ]);
  });

  it('exports staff accounts their own data only', async () => {
    const dados = (await exportar(equipe)).json<Exportacao>();
    expect(dados.titular).toMatchObject({ papel: 'funcionario' });
    expect(dados.locacoes).toEqual([]);
    expect(dados.infracoes).toEqual([]);
    expect(dados.avaliacoes.map((a) => a.titulo)).toEqual(['Obrigado pelas avaliações!']);
  });
});

describe('after the account is deleted (DELETE /api/me)', () => {
  it('keeps the reviews listed but anonymised, and the export is no longer reachable', async () => {
    const conta = await t.novoCliente({ nome: 'Pedro Que Sai' });
    const avaliacao = await avaliar(conta.token, {
      titulo: 'Antes de sair',
      nomeUsuario: 'Pedro Que Sai',
      email: 'pedro.sai@example.com',
      telefone: '(31) 98888-1111',
    });
    await exportar(conta.token);

    const exclusao = await t.chamar('DELETE', '/api/me', {
      token: conta.token,
      corpo: { senha: conta.senha },
    });
    expect(exclusao.statusCode).toBe(204);

    const lista = await t.chamar('GET', '/api/Avaliacao?limite=100', { token: equipe });
    expect(lista.statusCode).toBe(200);
    const anonimizada = lista
      .json<{ id_avaliacao: number }[]>()
      .find((a) => a.id_avaliacao === avaliacao.id_avaliacao);
    expect(anonimizada).toEqual({
      id_avaliacao: avaliacao.id_avaliacao,
      titulo: 'Antes de sair',
      nota: 5,
      data: dataLocalBr(AGORA),
      nomeUsuario: 'Cliente anônimo',
      nomeUsaurio: 'Cliente anônimo',
      observacao: 'Tudo certo.',
      observaceo: 'Tudo certo.',
      email: null,
      telefone: null,
    });
    expect(lista.body).not.toContain('Pedro Que Sai');

    const depois = await t.chamar('GET', '/api/me/dados', { token: conta.token });
    expect(depois.statusCode).toBe(401);
  });
});
