import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { usuarioSaidaSchema } from '@locadora/contract/contas';
import { STATUS_LOCACAO } from '@locadora/contract/dominio';
import { avaliacaoSaidaSchema, infracaoSaidaSchema } from '@locadora/contract/operacao';
import { formatarPlaca } from '@locadora/contract/placa';
import { centavosParaReais } from '@locadora/contract/preco';
import { comLogin, usuarioDe } from '../../http/autenticacao.js';
import { errosDocumentados } from '../../http/respostas.js';
import type { ContextoDasRotas } from '../../contexto.js';
import { paraUsuarioSaida } from '../contas/rotas.js';
import { paraAvaliacaoSaida } from '../avaliacoes/rotas.js';
import { paraInfracaoSaida } from '../infracoes/rotas.js';
import type { DadosDoTitular } from './servico.js';
import type { LocacaoDoTitular } from './repositorio.js';

const NOME_DO_ARQUIVO = 'meus-dados-locadora.json';

const momento = z.string().describe('ISO instant');

const locacaoExportadaSchema = z.object({
  id_locacao: z.number().int(),
  status: z.enum(STATUS_LOCACAO),
  local: z.string(),
  categoria: z.string(),
  modelo_veiculo: z.string(),
  adicional: z.string(),
  placa: z.string().nullable(),
  retirada_prevista: momento,
  entrega_prevista: momento,
  retirada_em: momento.nullable(),
  devolvida_em: momento.nullable(),
  cancelada_em: momento.nullable(),
  diarias: z.number().int(),
  vl_categoria: z.number(),
  custos_ad: z.number(),
  vl_total: z.number(),
  observacao: z.string().nullable(),
  criado_em: momento,
});

const dadosDoTitularSchema = z.object({
  geradoEm: momento,
  titular: usuarioSaidaSchema,
  locacoes: z.array(locacaoExportadaSchema),
  infracoes: z.array(infracaoSaidaSchema),
  avaliacoes: z.array(avaliacaoSaidaSchema),
  sessoes: z.array(
    z.object({ criadaEm: momento, expiraEm: momento, revogadaEm: momento.nullable() }),
  ),
});

function paraLocacaoExportada(l: LocacaoDoTitular): z.infer<typeof locacaoExportadaSchema> {
  return {
    id_locacao: l.id,
    status: l.status,
    local: l.local,
    categoria: l.categoria,
    modelo_veiculo: l.modelo,
    adicional: l.adicional,
    placa: l.placa && formatarPlaca(l.placa),
    retirada_prevista: l.retiradaPrevista.toISOString(),
    entrega_prevista: l.entregaPrevista.toISOString(),
    retirada_em: l.retiradaEm?.toISOString() ?? null,
    devolvida_em: l.devolvidaEm?.toISOString() ?? null,
    cancelada_em: l.canceladaEm?.toISOString() ?? null,
    diarias: l.diarias,
    vl_categoria: centavosParaReais(l.valorDiariaCentavos),
    custos_ad: centavosParaReais(l.valorAdicionalCentavos),
    vl_total: centavosParaReais(l.valorTotalCentavos),
    observacao: l.observacao,
    criado_em: l.criadoEm.toISOString(),
  };
}

function paraDadosExportados(d: DadosDoTitular): z.infer<typeof dadosDoTitularSchema> {
  return {
    geradoEm: d.geradoEm.toISOString(),
    titular: paraUsuarioSaida(d.titular),
    locacoes: d.locacoes.map(paraLocacaoExportada),
    infracoes: d.infracoes.map(paraInfracaoSaida),
    avaliacoes: d.avaliacoes.map((a) => paraAvaliacaoSaida(a, { comContato: true })),
    sessoes: d.sessoes.map((s) => ({
      criadaEm: s.criadaEm.toISOString(),
      expiraEm: s.expiraEm.toISOString(),
      revogadaEm: s.revogadaEm?.toISOString() ?? null,
    })),
  };
}

export const rotasDePrivacidade: FastifyPluginAsyncZod<ContextoDasRotas> = async (
  app,
  { servicos, guardas },
) => {
  const { privacidade } = servicos;

  app.get(
    '/me/dados',
    {
      onRequest: [guardas.autenticar],
      schema: {
        tags: ['Contas'],
        summary: 'Download my personal data (LGPD)',
        description:
          `A JSON file (\`${NOME_DO_ARQUIVO}\`) with the profile, reservations, fines of my contracts, ` +
          'my reviews and my logins. Never a password or its hash.',
        security: comLogin,
        response: { 200: dadosDoTitularSchema, ...errosDocumentados(401) },
      },
    },
    async (request, reply) => {
      const dados = await privacidade.exportar(usuarioDe(request).id);
      reply
        .header('content-disposition', `attachment; filename="${NOME_DO_ARQUIVO}"`)
        .header('cache-control', 'no-store');
      return paraDadosExportados(dados);
    },
  );
};
