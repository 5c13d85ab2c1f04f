import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAS_DEMO, idDoAssinante } from '@locadora/api';
import { criarAppDeTeste, type AppDeTeste } from '../app-de-teste.js';
import { HORA, relogioDeTeste } from './dados-de-teste.js';

/**
 * Issue 12's business events, end to end through the server's own outbox worker: each change
 * reaches the right people's Sino feed, in Portuguese, with a link into the app.
 */

const AGORA = relogioDeTeste();

let t: AppDeTeste;
let equipe: string;
/** Account ids of the demo customer, employee and admin. */
const demo: Record<string, number> = {};
/** The seeded fine's contract: the demo customer's, with its vehicle. */
let contrato: { id: number; placa: string; veiculo: number; data: string };
/** A seeded vehicle no demo contract ever used (as in infracoes.test.ts). */
let semContratos: number;

interface Mensagem {
  templateIdentifier: string;
  content: string;
  cta: { data: { url?: string } };
  payload: Record<string, unknown>;
}

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

/** Waits (10 s at most) for the messages of that workflow to which `filtro` answers. */
async function aguardar(
  usuarioId: number,
  fluxo: string,
  filtro: (m: Mensagem) => boolean = () => true,
): Promise<Mensagem> {
  const limite = Date.now() + 10_000;
  for (;;) {
    const m = (await feed(usuarioId)).find((x) => x.templateIdentifier === fluxo && filtro(x));
    if (m || Date.now() > limite) {
      expect(m, `${fluxo} não chegou a ${usuarioId}`).toBeDefined();
      return m!;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const codigo = (id: number) => `LOC-${String(id).padStart(6, '0')}`;

beforeAll(async () => {
  t = await criarAppDeTeste({ agora: () => AGORA });
  equipe = await t.tokenDe('funcionario');
  for (const conta of CONTAS_DEMO) {
    const r = await t.chamar('POST', '/api/Cadastro/authenticate', {
      corpo: { email: conta.email, senha: conta.senha },
    });
    demo[conta.papel] = r.json<{ id: number }>().id;
  }
  const [multa] = (await t.chamar('GET', '/api/infracoes?limite=100', { token: equipe })).json<
    { placa: string; id_locacao: number; data: string }[]
  >();
  const veiculos = (await t.chamar('GET', '/api/Veiculos?limite=100', { token: equipe })).json<
    { id_veiculo: number; placa: string }[]
  >();
  const norma = (p: string) => p.replace(/\W/g, '').toUpperCase();
  semContratos = veiculos.find((v) => norma(v.placa) === 'QWC1074')!.id_veiculo;
  contrato = {
    id: multa!.id_locacao,
    placa: multa!.placa,
    veiculo: veiculos.find((v) => norma(v.placa) === norma(multa!.placa))!.id_veiculo,
    data: multa!.data,
  };
});
afterAll(() => t?.fechar());

describe('avisos da Locadora pelo Sino', () => {
  it('reserva alterada e cancelada: o cliente recebe cada uma, com link para o contrato', async () => {
    const cliente = await t.novoCliente({ nome: 'Alice Alterações' });
    const categorias = (await t.chamar('GET', '/api/Categorias', { token: equipe })).json<
      { id_categoria: number; desc_categoria: string }[]
    >();
    const pedido = (dia: string) => ({
      id_local: 1,
      id_categoria: categorias.find((c) => c.desc_categoria === 'Hatches')!.id_categoria,
      modelo_veiculo: 'Gol',
      data_retirada: dia,
      hora_retirada: '10:00',
      data_entrega: '2030-09-20',
      hora_entrega: '10:00',
      custos_ad: 0,
    });
    const criada = await t.chamar('POST', '/api/Locacao', {
      token: cliente.token,
      corpo: pedido('2030-09-15'),
    });
    expect(criada.statusCode, criada.body).toBe(201);
    const id = criada.json<{ id_locacao: number }>().id_locacao;
    const confirmada = await aguardar(cliente.id, 'reserva-confirmada');
    expect(confirmada.content).toContain(codigo(id));

    const alterada = await t.chamar('PUT', `/api/Locacao/${id}`, {
      token: cliente.token,
      corpo: pedido('2030-09-16'),
    });
    expect(alterada.statusCode, alterada.body).toBe(200);
    const aviso = await aguardar(cliente.id, 'reserva-alterada');
    expect(aviso.content).toContain('16/09/2030 às 10:00');
    expect(aviso.cta.data.url).toBe(`/historico?contrato=${id}`);

    const cancelada = await t.chamar('DELETE', `/api/Locacao/${id}`, { token: cliente.token });
    expect(cancelada.statusCode, cancelada.body).toBe(200);
    const fim = await aguardar(cliente.id, 'reserva-cancelada');
    expect(fim.content).toBe(
      `A reserva <b>${codigo(id)}</b> (retirada em 16/09/2030 às 10:00) foi cancelada.`,
    );
    expect(fim.cta.data.url).toBe(`/historico?contrato=${id}`);
  });

  it('multa registrada: o cliente do contrato recebe o aviso crítico, com link para as infrações', async () => {
    const r = await t.chamar('POST', '/api/infracoes', {
      token: equipe,
      corpo: {
        placa: contrato.placa,
        data_hora: new Date(new Date(contrato.data).getTime() + HORA).toISOString(),
        descricao: 'Avançar o sinal vermelho',
        valor: 293.47,
        local: 'Av. Afonso Pena, 1500 - Belo Horizonte',
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().id_locacao).toBe(contrato.id);
    const aviso = await aguardar(demo.cliente!, 'multa-registrada', (m) =>
      m.content.includes('Avançar o sinal vermelho'),
    );
    expect(aviso.content).toContain(codigo(contrato.id));
    expect(aviso.content).toContain('R$');
    expect(aviso.cta.data.url).toBe(`/infracoes?contrato=${contrato.id}`);
  });

  it('vistoria com ordem de manutenção: a equipe e o cliente do contrato recebem os dois avisos', async () => {
    const r = await t.chamar('POST', '/api/Vistorias', {
      token: equipe,
      corpo: {
        id_veiculo: contrato.veiculo,
        id_locacao: contrato.id,
        tipo: 0,
        data_vistoria: new Date(AGORA.getTime() - 2 * HORA).toISOString(),
        descricao: 'Para-choque amassado.',
        observacoes: 'Cliente avisado.',
        cria_ordem_manut: true,
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const vistoria = r.json<{ id_vistoria: number }>().id_vistoria;
    for (const usuario of [demo.cliente!, demo.funcionario!, demo.admin!]) {
      const v = await aguardar(
        usuario,
        'vistoria-registrada',
        (m) => m.payload.vistoria === vistoria,
      );
      expect(v.content).toContain('Devolução do veículo: vistoria registrada');
      expect(v.cta.data.url).toBe(`/historico?contrato=${contrato.id}`);
      const m = await aguardar(usuario, 'manutencao-aberta', (x) => x.payload.id === contrato.id);
      expect(m.content).toContain('(Reparo)');
      expect(m.content).toContain('sem previsão');
    }
  });

  it('manutenção sem contrato: só a equipe é avisada, com link para as manutenções', async () => {
    const r = await t.chamar('POST', '/api/Manutencao', {
      token: equipe,
      corpo: {
        id_veiculo: semContratos,
        tipo: 5,
        data_inicio: '2025-04-01',
        previsao_termino: '2025-04-03',
        descricao: 'Higienização completa.',
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const ordem = r.json<{ id_manutencao: number }>().id_manutencao;
    const aviso = await aguardar(
      demo.funcionario!,
      'manutencao-aberta',
      (m) => m.payload.manutencao === ordem,
    );
    expect(aviso.content).toContain('(Limpeza), previsão de término: 03/04/2025');
    expect(aviso.cta.data.url).toBe('/manutencao');
  });

  it('avaliação recebida: a equipe é avisada, o autor não', async () => {
    const autor = await t.novoCliente({ nome: 'Beatriz Avaliação' });
    const r = await t.chamar('POST', '/api/Avaliacao', {
      token: autor.token,
      corpo: {
        titulo: 'Atendimento excelente',
        nota: 4,
        observacao: 'Carro limpo.',
        nomeUsuario: 'Bia',
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    for (const usuario of [demo.funcionario!, demo.admin!]) {
      const aviso = await aguardar(usuario, 'avaliacao-recebida', (m) =>
        m.content.includes('Atendimento excelente'),
      );
      expect(aviso.content).toBe('Nova avaliação: <b>Atendimento excelente</b>, nota 4 de 5.');
      expect(aviso.cta.data.url).toBe('/visualizarAvaliacao');
    }
    expect(await feed(autor.id)).toEqual([]);
  });
});
