import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import cookie from '@fastify/cookie';
import type { OpcoesLocadora } from './opcoes.js';
import { criarServicos } from './servicos.js';
import { criarRepositorios } from './repositorios.js';
import { criarGuardas } from './http/autenticacao.js';
import { instalarTratadorDeErros } from './http/tratador-de-erros.js';
import { validadorEmPortugues } from './http/validacao.js';
import { criarSerializadorDeRespostas } from './http/serializacao.js';
import { rotasDeContas } from './modules/contas/rotas.js';
import { rotasDeVistorias } from './modules/vistorias/rotas.js';
import { rotasDeManutencoes } from './modules/manutencoes/rotas.js';
import { rotasDeCategorias } from './modules/frota/rotas-categorias.js';
import { rotasDeEstoques } from './modules/frota/rotas-estoques.js';
import { rotasDeModelos } from './modules/frota/rotas-modelos.js';
import { rotasDeVeiculos } from './modules/frota/rotas-veiculos.js';
import { rotasDeReferencia } from './modules/frota/rotas-referencia.js';
import { rotasDeInfracoes } from './modules/infracoes/rotas.js';
import { rotasDeAvaliacoes } from './modules/avaliacoes/rotas.js';
import { rotasDePrivacidade } from './modules/privacidade/rotas.js';
import { rotasDeLocacoes } from './modules/locacoes/rotas.js';
import { rotasDoPainel } from './modules/painel/rotas.js';
import { rotasDeNotificacoes } from './notificacoes/rotas.js';
import { criarSessoesDoSino } from './notificacoes/sessao.js';
import { criarServicoDeTeste } from './notificacoes/teste.js';

/**
 * The rental API under `/api`: its own validator (Portuguese messages), error and 404
 * handlers, encapsulated so the other half of the product keeps its own.
 */
const api: FastifyPluginAsync<OpcoesLocadora> = async (app, opcoes) => {
  app.setValidatorCompiler(validadorEmPortugues);
  app.setSerializerCompiler(criarSerializadorDeRespostas({ conferir: opcoes.conferirRespostas }));
  instalarTratadorDeErros(app);
  await app.register(cookie);
  app.decorateRequest('usuario', null);

  const repositorios = opcoes.repositorios ?? criarRepositorios(opcoes.db);
  const servicos = criarServicos(opcoes, repositorios);
  const contexto = { servicos, guardas: criarGuardas(servicos.contas) };
  await app.register(rotasDeContas, contexto);
  await app.register(rotasDeVistorias, contexto);
  await app.register(rotasDeManutencoes, contexto);
  await app.register(rotasDeCategorias, contexto);
  await app.register(rotasDeEstoques, contexto);
  await app.register(rotasDeModelos, contexto);
  await app.register(rotasDeVeiculos, contexto);
  await app.register(rotasDeReferencia, contexto);
  await app.register(rotasDeInfracoes, contexto);
  await app.register(rotasDeAvaliacoes, contexto);
  await app.register(rotasDePrivacidade, contexto);
  await app.register(rotasDeLocacoes, contexto);
  await app.register(rotasDoPainel, contexto);
  await app.register(rotasDeNotificacoes, {
    ...contexto,
    sessoes: criarSessoesDoSino(opcoes.sino),
    teste: criarServicoDeTeste({
      repositorios,
      sino: opcoes.clienteSino,
      agora: opcoes.agora ?? (() => new Date()),
      log: app.log,
    }),
  });
};

/** Registers the rental API under `/api`. */
export const locadoraApi = fp<OpcoesLocadora>(
  async (app, opcoes) => {
    await app.register(api, { ...opcoes, prefix: '/api' });
  },
  { name: 'locadora-api', fastify: '5.x' },
);
