import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { Carregando, ErroDeCarga } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { ehEquipe, useUsuario } from '../../../lib/sessao';
import type { FiltroDeLocacoes, Locacao } from '../api/locacoes';
import { useAdicionais, useCategorias, useLocais, useModelos } from '../api/referencia';
import { FormularioDeLocacao, type Referencia } from '../componentes/FormularioDeLocacao';
import { ListaDeLocacoes } from '../componentes/ListaDeLocacoes';
import '../locacoes.css';

/** The catalogue the form needs; the form waits for all of it, so its choices never jump. */
function useReferencia() {
  const consultas = [useLocais(), useCategorias(), useModelos(), useAdicionais()] as const;
  const [locais, categorias, modelos, adicionais] = consultas;
  const falha = consultas.find((c) => c.isError);
  const referencia: Referencia | null =
    locais.data && categorias.data && modelos.data && adicionais.data
      ? {
          locais: locais.data,
          categorias: categorias.data,
          modelos: modelos.data,
          adicionais: adicionais.data,
        }
      : null;
  return {
    referencia,
    erro: falha?.error ?? null,
    tentarDeNovo: () => {
      for (const c of consultas) if (c.isError) void c.refetch();
    },
  };
}

/**
 * /locacao: customers book for themselves and manage their reservations; staff see and manage
 * every customer's. A selected reservation is edited (while 'reservada'), none is created.
 */
export default function PaginaLocacao() {
  const usuario = useUsuario();
  const equipe = ehEquipe(usuario);
  const { referencia, erro, tentarDeNovo } = useReferencia();
  const [filtro, setFiltro] = useState<FiltroDeLocacoes>({ pagina: 1, status: '' });
  const [selecionada, setSelecionada] = useState<Locacao | null>(null);
  // The form is remounted with fresh values when a reservation is picked, Novo Registro is
  // pressed or one is cancelled; not after a save, so the focus stays on the button just used.
  const [versao, setVersao] = useState(0);
  const tituloDoFormulario = useRef<HTMLHeadingElement>(null);

  const abrir = (l: Locacao | null) => {
    setSelecionada(l);
    setVersao((v) => v + 1);
  };

  useEffect(() => {
    // The pressed button is gone with the old form; the focus goes to the form's heading, which
    // also brings the form into view on a phone, where it sits below the list.
    if (versao > 0) tituloDoFormulario.current?.focus();
  }, [versao]);

  return (
    <Pagina
      titulo="Locação"
      descricao={
        equipe
          ? 'Reservas de todos os clientes. Selecione uma para alterar ou excluir, ou faça uma nova.'
          : 'Reserve um veículo e acompanhe suas reservas.'
      }
    >
      <div className="colunas locacao">
        <section className="cartao" aria-labelledby="titulo-lista-locacoes">
          <h2 id="titulo-lista-locacoes">{equipe ? 'Reservas' : 'Minhas reservas'}</h2>
          <ListaDeLocacoes
            filtro={filtro}
            aoFiltrar={setFiltro}
            selecionadaId={selecionada?.id_locacao ?? null}
            aoSelecionar={abrir}
            equipe={equipe}
          />
        </section>
        <section className="cartao" aria-labelledby="titulo-formulario-locacao">
          <div className="locacao__titulo-formulario">
            <h2 id="titulo-formulario-locacao" ref={tituloDoFormulario} tabIndex={-1}>
              {selecionada
                ? selecionada.status === 'reservada'
                  ? `Alterar reserva ${selecionada.codigo}`
                  : `Reserva ${selecionada.codigo}`
                : 'Nova reserva'}
            </h2>
            {selecionada && (
              <Link
                to={`${paths.localizacao.caminho}?codigo=${encodeURIComponent(selecionada.codigo)}`}
              >
                Ver local no mapa
              </Link>
            )}
          </div>
          {erro && <ErroDeCarga erro={erro} tentarDeNovo={tentarDeNovo} />}
          {!erro && !referencia && <Carregando texto="Carregando o formulário…" />}
          {referencia && (
            <FormularioDeLocacao
              key={versao}
              locacao={selecionada}
              referencia={referencia}
              equipe={equipe}
              nomeDoUsuario={usuario.nome}
              aoGravar={setSelecionada}
              aoNovo={() => abrir(null)}
              aoExcluir={() => abrir(null)}
            />
          )}
        </section>
      </div>
    </Pagina>
  );
}
