import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { mensagemDoErro } from '../../../lib/api';
import { ehEquipe, useUsuario } from '../../../lib/sessao';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import { useAvaliacoes, useExcluirAvaliacao, type Avaliacao } from '../api/avaliacoes';
import { NotaEmEstrelas } from '../components/Estrelas';
import { formatarTelefone } from '../telefone';
import '../avaliacoes.css';

/** 'dd/mm/aaaa' (as the API answers) -> 'aaaa-mm-dd' for <time dateTime>. */
const dataIso = (data: string) => data.split('/').reverse().join('-');

function CartaoDeAvaliacao({
  avaliacao: a,
  podeExcluir,
  aoExcluir,
}: {
  avaliacao: Avaliacao;
  podeExcluir: boolean;
  aoExcluir: () => void;
}) {
  const idTitulo = `avaliacao-${a.id_avaliacao}`;
  const contato = [a.email, a.telefone && formatarTelefone(a.telefone)].filter(Boolean).join(' · ');
  return (
    <li>
      <article className="cartao avaliacao" aria-labelledby={idTitulo}>
        <div className="avaliacao__topo">
          <h2 id={idTitulo}>{a.titulo}</h2>
          <NotaEmEstrelas nota={a.nota} />
        </div>
        <p className="avaliacao__meta">
          <time dateTime={dataIso(a.data)}>{a.data}</time> · por {a.nomeUsuario}
        </p>
        <p className="avaliacao__texto">{a.observacao}</p>
        {contato && <p className="avaliacao__contato">Contato: {contato}</p>}
        {podeExcluir && (
          <div className="avaliacao__acoes">
            <button
              type="button"
              className="botao botao--secundario botao--pequeno"
              onClick={aoExcluir}
              aria-label={`Excluir a avaliação “${a.titulo}”`}
            >
              Excluir
            </button>
          </div>
        )}
      </article>
    </li>
  );
}

/** /visualizarAvaliacao: every review, newest first, as cards. */
export default function PaginaAvaliacoes() {
  const usuario = useUsuario();
  const lista = useAvaliacoes();
  const excluir = useExcluirAvaliacao();
  const avisar = useAvisos();
  const [alvo, setAlvo] = useState<Avaliacao | null>(null);
  const [erroAoExcluir, setErroAoExcluir] = useState<string | null>(null);

  const avaliacoes = lista.data?.pages.flat() ?? [];
  // The API answers the reviewer's contact data only to staff and to the author, so its
  // presence marks the reviews this user may delete (the list does not name the author's id).
  const podeExcluir = (a: Avaliacao) => ehEquipe(usuario) || a.email !== undefined;

  async function confirmarExclusao() {
    if (!alvo) return;
    setErroAoExcluir(null);
    try {
      await excluir.mutateAsync(alvo.id_avaliacao);
      setAlvo(null);
      avisar('Avaliação excluída.');
    } catch (erro) {
      setErroAoExcluir(mensagemDoErro(erro));
    }
  }

  return (
    <Pagina
      titulo="Avaliações"
      descricao="O que os clientes contam sobre a locadora."
      acoes={
        <Link to={paths.novaAvaliacao.caminho} className="botao">
          Enviar avaliação
        </Link>
      }
    >
      {lista.isPending && <Carregando texto="Carregando avaliações…" />}
      {lista.isError && !lista.data && (
        <ErroDeCarga erro={lista.error} tentarDeNovo={() => void lista.refetch()} />
      )}
      {lista.isSuccess && avaliacoes.length === 0 && (
        <Vazio>
          Ainda não há avaliações.{' '}
          <Link to={paths.novaAvaliacao.caminho}>Seja o primeiro a avaliar.</Link>
        </Vazio>
      )}
      {avaliacoes.length > 0 && (
        <>
          <ul className="avaliacoes" aria-label="Avaliações, das mais recentes às mais antigas">
            {avaliacoes.map((a) => (
              <CartaoDeAvaliacao
                key={a.id_avaliacao}
                avaliacao={a}
                podeExcluir={podeExcluir(a)}
                aoExcluir={() => {
                  setErroAoExcluir(null);
                  setAlvo(a);
                }}
              />
            ))}
          </ul>
          {lista.isFetchNextPageError && <Alerta tipo="erro">{mensagemDoErro(lista.error)}</Alerta>}
          {lista.hasNextPage && (
            <div className="avaliacoes__mais">
              <button
                type="button"
                className="botao botao--secundario"
                onClick={() => void lista.fetchNextPage()}
                disabled={lista.isFetchingNextPage}
              >
                {lista.isFetchingNextPage ? 'Carregando…' : 'Carregar mais avaliações'}
              </button>
            </div>
          )}
        </>
      )}
      <Confirmacao
        aberta={alvo !== null}
        titulo="Excluir esta avaliação?"
        confirmar="Excluir avaliação"
        perigosa
        ocupada={excluir.isPending}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setAlvo(null)}
      >
        <p>A avaliação “{alvo?.titulo}” será removida da lista. Esta ação não pode ser desfeita.</p>
        {erroAoExcluir && <Alerta tipo="erro">{erroAoExcluir}</Alerta>}
      </Confirmacao>
    </Pagina>
  );
}
