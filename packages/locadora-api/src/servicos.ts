import type { OpcoesLocadora } from './contexto.js';
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

/** Builds every service of the rental domain on one database and clock. */
export function criarServicos(opcoes: OpcoesLocadora) {
  const agora = opcoes.agora ?? (() => new Date());
  const { db } = opcoes;
  const contas = criarServicoContas({
    db,
    tokens: criarEmissorDeTokens(opcoes.segredoJwt, opcoes.sessao.validadeAcessoMinutos),
    limitador: criarLimitadorDeLogin(db, opcoes.login),
    validadeSessaoDias: opcoes.sessao.validadeSessaoDias,
    agora,
  });
  return {
    contas,
    vistorias: criarServicoVistorias({ db, agora }),
    manutencoes: criarServicoManutencoes({ db, agora }),
    frota: criarServicoFrota({ db }),
    infracoes: criarServicoInfracoes({
      db,
      agora,
      prazoIndicacaoCondutorDias: opcoes.regras.prazoIndicacaoCondutorDias,
    }),
    avaliacoes: criarServicoAvaliacoes({ db, agora }),
    privacidade: criarServicoPrivacidade({ db, agora }),
    locacoes: criarServicoLocacoes({
      db,
      agora,
      intervaloEntreLocacoesHoras: opcoes.regras.intervaloEntreLocacoesHoras,
    }),
  };
}
export type Servicos = ReturnType<typeof criarServicos>;
