import { useRef, useState } from 'react';
import { mensagemDoErro } from '../../../lib/api';
import { formatarData, formatarDataHora, formatarReais } from '../../../lib/formatos';
import { CampoSelecao } from '../../../components/Campo';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { useAvisos } from '../../../components/Avisos';
import {
  POR_PAGINA,
  useEncerrarManutencao,
  useManutencoes,
  type FiltroDaLista,
  type Manutencao,
  type Situacao,
} from '../api/manutencoes';
import type { Veiculo } from '../api/veiculos';
import { SeletorDeVeiculo } from './SeletorDeVeiculo';

const horas = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/**
 * Where the order stands and what it does to the fleet. The server keeps the vehicle out of the
 * available fleet from the start until the closing, else until the expected end, else for good.
 */
function situacaoDe(
  m: Manutencao,
  agora: number,
): { rotulo: string; classe: string; efeito: string } {
  if (m.encerrada_em)
    return {
      rotulo: 'Encerrada',
      classe: 'encerrada',
      efeito: `Em ${formatarDataHora(m.encerrada_em)}; o veículo voltou à frota.`,
    };
  const previsao = m.previsao_termino ? Date.parse(m.previsao_termino) : null;
  if (Date.parse(m.data_inicio) > agora)
    return {
      rotulo: 'Agendada',
      classe: 'agendada',
      efeito: `Sai da frota em ${formatarData(m.data_inicio)}.`,
    };
  if (previsao !== null && previsao <= agora)
    return {
      rotulo: 'Aberta',
      classe: 'vencida',
      efeito: `Previsão vencida em ${formatarData(m.previsao_termino)}: o veículo já volta a ser reservado. Encerre a ordem.`,
    };
  return {
    rotulo: 'Aberta',
    classe: 'aberta',
    efeito:
      previsao !== null
        ? `Fora da frota até ${formatarData(m.previsao_termino)} ou até o encerramento.`
        : 'Fora da frota até o encerramento.',
  };
}

export function ListaDeManutencoes({
  veiculos,
  filtro,
  aoFiltrar,
  destaque,
}: {
  veiculos: readonly Veiculo[];
  filtro: FiltroDaLista;
  aoFiltrar: (filtro: FiltroDaLista) => void;
  destaque: number | null;
}) {
  const lista = useManutencoes(filtro);
  const encerrar = useEncerrarManutencao();
  const avisar = useAvisos();
  const [agora] = useState(() => Date.now());
  const [aEncerrar, setAEncerrar] = useState<Manutencao | null>(null);
  const [erro, setErro] = useState<string | null>(null);
  const titulo = useRef<HTMLHeadingElement>(null);

  async function confirmarEncerramento() {
    if (!aEncerrar) return;
    try {
      const encerrada = await encerrar.mutateAsync(aEncerrar);
      setErro(null);
      avisar(
        `Manutenção nº ${encerrada.id_manutencao} encerrada: o veículo ${encerrada.placa} voltou à frota disponível.`,
      );
    } catch (e) {
      setErro(`Erro ao encerrar a manutenção nº ${aEncerrar.id_manutencao}: ${mensagemDoErro(e)}`);
    } finally {
      setAEncerrar(null);
      titulo.current?.focus();
    }
  }

  const linhas = lista.data ?? [];
  return (
    <section className="manutencoes__lista" aria-labelledby="manutencoes-titulo">
      <h2 id="manutencoes-titulo" ref={titulo} tabIndex={-1}>
        Ordens de manutenção
      </h2>
      <Alerta tipo="info">
        <p>
          Enquanto a ordem está aberta, o veículo fica fora da frota disponível para reservas: do
          início até o encerramento ou, se houver, até a previsão de término. Encerre a ordem quando
          o veículo sair da oficina.
        </p>
      </Alerta>
      <div className="manutencoes__filtros" role="group" aria-label="Filtros da lista">
        <CampoSelecao
          rotulo="Situação"
          value={filtro.situacao}
          onChange={(e) =>
            aoFiltrar({ ...filtro, situacao: e.target.value as Situacao, pagina: 1 })
          }
        >
          <option value="todas">Todas</option>
          <option value="abertas">Abertas</option>
          <option value="encerradas">Encerradas</option>
        </CampoSelecao>
        <SeletorDeVeiculo
          rotulo="Veículo da lista"
          vazio="Todos os veículos"
          veiculos={veiculos}
          value={filtro.veiculoId === null ? '' : String(filtro.veiculoId)}
          onChange={(e) =>
            aoFiltrar({ ...filtro, veiculoId: Number(e.target.value) || null, pagina: 1 })
          }
        />
      </div>
      {erro && <Alerta tipo="erro">{erro}</Alerta>}
      {lista.isPending && <Carregando texto="Carregando as ordens…" />}
      {lista.isError && (
        <ErroDeCarga erro={lista.error} tentarDeNovo={() => void lista.refetch()} />
      )}
      {lista.isSuccess && linhas.length === 0 && (
        <Vazio>
          {filtro.pagina > 1
            ? 'Não há mais ordens nesta lista.'
            : 'Nenhuma ordem de manutenção com estes filtros.'}
        </Vazio>
      )}
      {linhas.length > 0 && (
        <div className="tabela-rolavel">
          <table
            className="tabela manutencoes-tabela"
            aria-labelledby="manutencoes-titulo"
            aria-busy={lista.isFetching}
          >
            <thead>
              <tr>
                <th scope="col">Nº</th>
                <th scope="col">Veículo</th>
                <th scope="col">Tipo</th>
                <th scope="col">Início</th>
                <th scope="col">Previsão</th>
                <th scope="col">Situação</th>
                <th scope="col">Descrição</th>
                <th scope="col">Oficina</th>
                <th scope="col">Ações</th>
              </tr>
            </thead>
            <tbody>
              {linhas.map((m) => {
                const situacao = situacaoDe(m, agora);
                return (
                  <tr
                    key={m.id_manutencao}
                    className={
                      m.id_manutencao === destaque ? 'manutencoes__linha--destaque' : undefined
                    }
                  >
                    <td data-rotulo="Nº">{m.id_manutencao}</td>
                    <td data-rotulo="Veículo">{m.placa}</td>
                    <td data-rotulo="Tipo">{m.tipo_descricao}</td>
                    <td data-rotulo="Início">{formatarData(m.data_inicio)}</td>
                    <td data-rotulo="Previsão">{formatarData(m.previsao_termino)}</td>
                    <td data-rotulo="Situação">
                      <span className={`manutencoes__selo manutencoes__selo--${situacao.classe}`}>
                        {situacao.rotulo}
                      </span>
                      <span className="manutencoes__efeito">{situacao.efeito}</span>
                    </td>
                    <td data-rotulo="Descrição">
                      <span className="manutencoes__texto">{m.descricao}</span>
                      {m.id_vistoria !== null && (
                        <span className="manutencoes__efeito">Vistoria nº {m.id_vistoria}</span>
                      )}
                    </td>
                    <td data-rotulo="Oficina">
                      {m.hora_oficina === null && m.valor_nf === null ? (
                        '—'
                      ) : (
                        <>
                          {m.hora_oficina !== null && (
                            <span className="manutencoes__bloco">
                              {horas.format(m.hora_oficina)} h
                            </span>
                          )}
                          {m.valor_nf !== null && (
                            <span className="manutencoes__bloco">
                              NF {formatarReais(m.valor_nf)}
                            </span>
                          )}
                        </>
                      )}
                    </td>
                    <td data-rotulo="Ações">
                      {/* A scheduled order cannot close before it starts (the API refuses). */}
                      {situacao.classe === 'encerrada' || situacao.classe === 'agendada' ? (
                        '—'
                      ) : (
                        <button
                          type="button"
                          className="botao botao--secundario botao--pequeno"
                          onClick={() => {
                            setErro(null);
                            setAEncerrar(m);
                          }}
                        >
                          Encerrar
                          <span className="visualmente-oculto">
                            {' '}
                            a manutenção nº {m.id_manutencao}
                          </span>
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {(filtro.pagina > 1 || linhas.length === POR_PAGINA) && (
        <nav className="acoes manutencoes__paginas" aria-label="Páginas da lista">
          <button
            type="button"
            className="botao botao--secundario botao--pequeno"
            disabled={filtro.pagina === 1 || lista.isFetching}
            onClick={() => aoFiltrar({ ...filtro, pagina: filtro.pagina - 1 })}
          >
            Anterior
          </button>
          <span>Página {filtro.pagina}</span>
          <button
            type="button"
            className="botao botao--secundario botao--pequeno"
            disabled={linhas.length < POR_PAGINA || lista.isFetching}
            onClick={() => aoFiltrar({ ...filtro, pagina: filtro.pagina + 1 })}
          >
            Próxima
          </button>
        </nav>
      )}
      <Confirmacao
        aberta={aEncerrar !== null}
        titulo={aEncerrar ? `Encerrar a manutenção nº ${aEncerrar.id_manutencao}?` : 'Encerrar?'}
        confirmar="Encerrar"
        ocupada={encerrar.isPending}
        aoConfirmar={() => void confirmarEncerramento()}
        aoCancelar={() => setAEncerrar(null)}
      >
        {aEncerrar && (
          <p>
            {aEncerrar.tipo_descricao} do veículo {aEncerrar.placa}: “{aEncerrar.descricao}”. A
            ordem é encerrada agora e o veículo volta à frota disponível para reservas.
          </p>
        )}
      </Confirmacao>
    </section>
  );
}
