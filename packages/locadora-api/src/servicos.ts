import type { OpcoesLocadora } from './opcoes.js';
import type { Repositorios } from './repositorios.js';
import { criarServicoContas } from './modules/contas/servico.js';
import { criarEmissorDeTokens } from './modules/contas/tokens.js';
import { criarLimitadorDeLogin } from './modules/contas/limitador.js';
import { criarServicoVistorias } from './modules/vistorias/servico.js';
import { criarServicoManutencoes } from './modules/manutencoes/servico.js';
import { criarServicoFrota } from './modules/frota/servico.js';
import { criarServicoInfracoes } from './modules/infracoes/servico.js';
import { criarServicoAvaliacoes } from './modules/avaliacoes/servico.js';
import { criarServicoPrivacidade } from './modules/privacidade/servico.js';
import { criarServicoLocacoes } from './modules/locacoes/servico.js';
import { criarServicoPainel } from './modules/painel/servico.js';

/** Builds every service of the rental domain once, on the same repositories and clock. */
export function criarServicos(opcoes: OpcoesLocadora, repositorios: Repositorios) {
  const agora = opcoes.agora ?? (() => new Date());
  const contas = criarServicoContas({
    repositorios,
    tokens: criarEmissorDeTokens(
      { atual: opcoes.segredoJwt, anteriores: opcoes.segredosJwtAnteriores },
      opcoes.sessao.validadeAcessoMinutos,
    ),
    limitador: criarLimitadorDeLogin(opcoes.db, opcoes.login),
    validadeSessaoDias: opcoes.sessao.validadeSessaoDias,
    agora,
  });
  return {
    contas,
    vistorias: criarServicoVistorias({ repositorios, agora }),
    manutencoes: criarServicoManutencoes({ repositorios, agora }),
    frota: criarServicoFrota({ repositorios }),
    infracoes: criarServicoInfracoes({
      repositorios,
      agora,
      prazoIndicacaoCondutorDias: opcoes.regras.prazoIndicacaoCondutorDias,
    }),
    avaliacoes: criarServicoAvaliacoes({ repositorios, agora }),
    privacidade: criarServicoPrivacidade({ repositorios, agora }),
    locacoes: criarServicoLocacoes({
      repositorios,
      agora,
      intervaloEntreLocacoesHoras: opcoes.regras.intervaloEntreLocacoesHoras,
    }),
    painel: criarServicoPainel({ repositorios, agora }),
  };
}
export type Servicos = ReturnType<typeof criarServicos>;
