import type { StatusLocacao } from '@locadora/contract/dominio';
import { STATUS_LOCACAO } from '@locadora/contract/dominio';
import { CampoSelecao } from '../../../components/Campo';
import { Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { formatarData, formatarReais } from '../../../lib/formatos';
import {
  TAMANHO_DA_PAGINA,
  useLocacoes,
  type FiltroDeLocacoes,
  type Locacao,
} from '../api/locacoes';
import { ROTULOS_DE_STATUS } from '../status';

/** The reservations by pickup date (newest first), a page at a time, filtered by status. */
export function ListaDeLocacoes({
  filtro,
  aoFiltrar,
  selecionadaId,
  aoSelecionar,
  equipe,
}: {
  filtro: FiltroDeLocacoes;
  aoFiltrar: (f: FiltroDeLocacoes) => void;
  selecionadaId: number | null;
  aoSelecionar: (l: Locacao) => void;
  equipe: boolean;
}) {
  const locacoes = useLocacoes(filtro);
  const itens = locacoes.data ?? [];
  // The API answers a plain page: a full one may have a next.
  const temProxima = itens.length === TAMANHO_DA_PAGINA;
  const temPaginacao = filtro.pagina > 1 || temProxima;

  return (
    <>
      <CampoSelecao
        rotulo="Status"
        value={filtro.status}
        onChange={(e) => aoFiltrar({ pagina: 1, status: e.target.value as StatusLocacao | '' })}
      >
        <option value="">Todos</option>
        {STATUS_LOCACAO.map((s) => (
          <option key={s} value={s}>
            {ROTULOS_DE_STATUS[s]}
          </option>
        ))}
      </CampoSelecao>

      <div className="locacao__conteudo-lista">
        {locacoes.isPending && <Carregando texto="Carregando reservas…" />}
        {locacoes.isError && (
          <ErroDeCarga erro={locacoes.error} tentarDeNovo={() => void locacoes.refetch()} />
        )}
        {locacoes.isSuccess && itens.length === 0 && (
          <Vazio>
            {filtro.status
              ? `Nenhuma reserva com o status ${ROTULOS_DE_STATUS[filtro.status].toLowerCase()}${filtro.pagina > 1 ? ' nesta página' : ''}.`
              : filtro.pagina > 1
                ? 'Não há mais reservas.'
                : equipe
                  ? 'Nenhuma reserva cadastrada ainda.'
                  : 'Você ainda não tem reservas. Preencha o formulário para fazer a primeira.'}
          </Vazio>
        )}
        {itens.length > 0 && (
          <ul
            className="lista-selecionavel locacao__lista"
            aria-label="Reservas"
            aria-busy={locacoes.isPlaceholderData || undefined}
          >
            {itens.map((l) => (
              <li key={l.id_locacao}>
                <button
                  type="button"
                  aria-pressed={l.id_locacao === selecionadaId}
                  onClick={() => aoSelecionar(l)}
                >
                  <span className="locacao__item-topo">
                    <strong>
                      {formatarData(l.data_retirada)} {l.hora_retirada}
                    </strong>
                    <span className={`locacao__status locacao__status--${l.status}`}>
                      {ROTULOS_DE_STATUS[l.status]}
                    </span>
                  </span>
                  <span className="locacao__item-linha">
                    {l.codigo} · {l.categoria} / {l.modelo_veiculo}
                  </span>
                  <span className="locacao__item-linha locacao__item-rodape">
                    <span>{equipe ? l.nome_cliente : l.local}</span>
                    <span className="locacao__item-total">{formatarReais(l.vl_total)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {temPaginacao && (
          <nav className="locacao__paginas" aria-label="Páginas de reservas">
            <button
              type="button"
              className="botao botao--secundario botao--pequeno"
              disabled={filtro.pagina <= 1}
              onClick={() => aoFiltrar({ ...filtro, pagina: filtro.pagina - 1 })}
            >
              Anterior
            </button>
            <span aria-live="polite">Página {filtro.pagina}</span>
            <button
              type="button"
              className="botao botao--secundario botao--pequeno"
              disabled={!temProxima || locacoes.isPlaceholderData}
              onClick={() => aoFiltrar({ ...filtro, pagina: filtro.pagina + 1 })}
            >
              Próxima
            </button>
          </nav>
        )}
      </div>
    </>
  );
}
