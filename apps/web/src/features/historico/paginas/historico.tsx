import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { OBSERVACAO_PADRAO_HISTORICO } from '@locadora/contract/dominio';
import { ErroDaApi, mensagemDoErro } from '../../../lib/api';
import { formatarData, formatarReais } from '../../../lib/formatos';
import { ehEquipe, useUsuario } from '../../../lib/sessao';
import { Campo } from '../../../components/Campo';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import {
  chaveDoContrato,
  useHistorico,
  useHistoricoDoContrato,
  type Historico,
} from '../api/historico';
import { idDoContrato, MENSAGEM_CONTRATO_INVALIDO } from '../contrato';
import './historico.css';

const SITUACOES: Record<Historico['Status'], string> = {
  reservada: 'Reservada (aguardando retirada)',
  retirada: 'Em andamento (veículo retirado)',
  devolvida: 'Encerrada (veículo devolvido)',
  cancelada: 'Cancelada',
};

const SITUACOES_CURTAS: Record<Historico['Status'], string> = {
  reservada: 'Reservada',
  retirada: 'Em andamento',
  devolvida: 'Encerrada',
  cancelada: 'Cancelada',
};

const encerramento = (h: Historico) =>
  h.Encerramento ? formatarData(h.Encerramento) : h.Status === 'cancelada' ? '—' : 'Em aberto';

/**
 * A 404 names the contract, so the person knows which number to check. Someone else's contract
 * answers 404 too: the server never tells which numbers exist.
 */
function mensagemDaConsulta(erro: unknown, contrato: number): string {
  if (erro instanceof ErroDaApi && erro.status === 404)
    return `Contrato nº ${contrato} não encontrado. Confira o número e tente de novo.`;
  return mensagemDoErro(erro);
}

function FormularioDeConsulta({
  inicial,
  aoConsultar,
}: {
  inicial: string;
  aoConsultar: (contrato: number) => void;
}) {
  const [texto, setTexto] = useState(inicial);
  const [erro, setErro] = useState<string | undefined>();
  // A contract opened elsewhere (the list, the browser's back button) shows up in the box,
  // unless the box already names it (as typed: '123' or 'LOC-000123').
  const [inicialAnterior, setInicialAnterior] = useState(inicial);
  if (inicial !== inicialAnterior) {
    setInicialAnterior(inicial);
    if (String(idDoContrato(texto)) !== inicial) {
      setTexto(inicial);
      setErro(undefined);
    }
  }

  function enviar(evento: FormEvent) {
    evento.preventDefault();
    const contrato = idDoContrato(texto);
    if (contrato === null) {
      setErro(MENSAGEM_CONTRATO_INVALIDO);
      return;
    }
    setErro(undefined);
    aoConsultar(contrato);
  }

  return (
    <form onSubmit={enviar} noValidate className="historico__consulta">
      <Campo
        rotulo="Número do contrato"
        autoComplete="off"
        dica={
          <>
            O número (123) ou o código do contrato (
            <span className="historico__sem-quebra">LOC-000123</span>).
          </>
        }
        value={texto}
        erro={erro}
        onChange={(e) => setTexto(e.target.value)}
      />
      <button type="submit" className="botao">
        Consultar Histórico
      </button>
    </form>
  );
}

function ResultadoDaConsulta({ contrato, focar }: { contrato: number; focar: number }) {
  const consulta = useHistoricoDoContrato(contrato);
  const h = consulta.data;
  const titulo = useRef<HTMLHeadingElement>(null);
  // Opened from the list below: focus (and the view) moves to the contract.
  useEffect(() => {
    if (focar > 0) titulo.current?.focus();
  }, [focar]);
  return (
    <section className="cartao" aria-labelledby="titulo-resultado-historico">
      <h2 id="titulo-resultado-historico" ref={titulo} tabIndex={-1}>
        Contrato nº {contrato}
      </h2>
      {consulta.isPending && <Carregando texto="Consultando o histórico…" />}
      {consulta.isError && (
        <Alerta tipo="erro">
          <p>{mensagemDaConsulta(consulta.error, contrato)}</p>
        </Alerta>
      )}
      {h && (
        <>
          <p role="status" className="visualmente-oculto">
            Contrato nº {h.Contrato} encontrado.
          </p>
          <dl className="dados historico__dados">
            <dt>Número do contrato</dt>
            <dd>{h.Contrato}</dd>
            <dt>Situação</dt>
            <dd>
              <span className={`historico__situacao historico__situacao--${h.Status}`}>
                {SITUACOES[h.Status]}
              </span>
            </dd>
            <dt>Encerramento</dt>
            <dd>{encerramento(h)}</dd>
            <dt>Veículo</dt>
            <dd>{h.Veiculo}</dd>
            <dt>Valor da locação</dt>
            <dd>{formatarReais(h.Valores)}</dd>
            <dt>Observação</dt>
            <dd className="historico__observacao">
              {h.Observacao.trim() || OBSERVACAO_PADRAO_HISTORICO}
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}

function ListaDeContratos({
  equipe,
  aoConsultar,
}: {
  equipe: boolean;
  aoConsultar: (contrato: number) => void;
}) {
  const historico = useHistorico();
  const contratos = historico.data?.pages.flat();
  return (
    <section className="cartao" aria-labelledby="titulo-lista-historico">
      <h2 id="titulo-lista-historico">{equipe ? 'Contratos recentes' : 'Seus contratos'}</h2>
      {historico.isPending && <Carregando />}
      {historico.isError && (
        <ErroDeCarga erro={historico.error} tentarDeNovo={() => void historico.refetch()} />
      )}
      {contratos?.length === 0 && (
        <Vazio>{equipe ? 'Nenhum contrato registrado.' : 'Você ainda não tem contratos.'}</Vazio>
      )}
      {contratos && contratos.length > 0 && (
        <>
          <div
            className="tabela-rolavel historico__tabela"
            role="region"
            aria-label="Tabela de contratos"
            tabIndex={0}
          >
            <table className="tabela">
              <thead>
                <tr>
                  <th scope="col">Contrato</th>
                  <th scope="col">Veículo</th>
                  <th scope="col">Situação</th>
                  <th scope="col">Encerramento</th>
                  <th scope="col">Valor</th>
                  <th scope="col">
                    <span className="visualmente-oculto">Ações</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {contratos.map((h) => (
                  <tr key={h.Contrato}>
                    <td>nº {h.Contrato}</td>
                    <td className="historico__sem-quebra">{h.Veiculo}</td>
                    <td>{SITUACOES_CURTAS[h.Status]}</td>
                    <td className="historico__sem-quebra">{encerramento(h)}</td>
                    <td className="historico__sem-quebra">{formatarReais(h.Valores)}</td>
                    <td>
                      <button
                        type="button"
                        className="botao botao--secundario botao--pequeno"
                        aria-label={`Consultar o contrato nº ${h.Contrato}`}
                        onClick={() => aoConsultar(h.Contrato)}
                      >
                        Consultar
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {historico.hasNextPage && (
            <div className="acoes historico__mais">
              <button
                type="button"
                className="botao botao--secundario"
                disabled={historico.isFetchingNextPage}
                onClick={() => void historico.fetchNextPage()}
              >
                {historico.isFetchingNextPage ? 'Carregando…' : 'Mostrar mais contratos'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/**
 * /historico: a contract's closing date, vehicle, amount and observation, by number or picked
 * from the list (customers see only their own; the server decides).
 */
export default function PaginaHistorico() {
  const usuario = useUsuario();
  const equipe = ehEquipe(usuario);
  const queryClient = useQueryClient();
  const [parametros, setParametros] = useSearchParams();
  const contrato = idDoContrato(parametros.get('contrato') ?? '');
  const [focarResultado, setFocarResultado] = useState(0);

  const consultar = (id: number) => {
    // Asking again reads it again: the contract may have been closed meanwhile.
    void queryClient.invalidateQueries({ queryKey: chaveDoContrato(id) });
    setParametros({ contrato: String(id) });
  };

  return (
    <Pagina
      titulo="Histórico"
      descricao={
        equipe
          ? 'Consulte o encerramento, o veículo e os valores de qualquer contrato.'
          : 'Consulte o encerramento, o veículo e os valores dos seus contratos.'
      }
    >
      <div className="historico">
        <section className="cartao" aria-labelledby="titulo-consulta-historico">
          <h2 id="titulo-consulta-historico">Consultar contrato</h2>
          <FormularioDeConsulta
            inicial={contrato === null ? '' : String(contrato)}
            aoConsultar={consultar}
          />
        </section>
        {contrato !== null && <ResultadoDaConsulta contrato={contrato} focar={focarResultado} />}
        <ListaDeContratos
          equipe={equipe}
          aoConsultar={(id) => {
            consultar(id);
            setFocarResultado((n) => n + 1);
          }}
        />
      </div>
    </Pagina>
  );
}
