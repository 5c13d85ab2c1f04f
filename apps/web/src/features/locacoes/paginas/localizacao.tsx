import 'leaflet/dist/leaflet.css';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Campo } from '../../../components/Campo';
import { Alerta, Carregando, ErroDeCarga } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { ErroDaApi } from '../../../lib/api';
import { formatarData, formatarReais } from '../../../lib/formatos';
import { ehEquipe, useUsuario } from '../../../lib/sessao';
import { useLocacoes } from '../api/locacoes';
import { useConfiguracao, useLocalizacao, type Localizacao } from '../api/localizacao';
import { idDoCodigo } from '../codigo';
import { MapaDoLocal, linkDoOpenStreetMap } from '../componentes/MapaDoLocal';
import { ROTULOS_DE_STATUS } from '../status';
import { useValorAtrasado } from '../useValorAtrasado';
import '../locacoes.css';

const ESPERA_MS = 400;

const temCoordenadas = (l: Localizacao['local'] | null | undefined): l is Localizacao['local'] =>
  !!l && Number.isFinite(l.latitude) && Number.isFinite(l.longitude);

function Detalhes({ dados, equipe }: { dados: Localizacao; equipe: boolean }) {
  const { locacao: l } = dados;
  return (
    <section className="cartao" aria-labelledby="titulo-detalhes-locacao">
      <h2 id="titulo-detalhes-locacao">Locação {l.codigo}</h2>
      <dl className="dados">
        <dt>Status</dt>
        <dd>
          <span className={`locacao__status locacao__status--${l.status}`}>
            {ROTULOS_DE_STATUS[l.status]}
          </span>
        </dd>
        {equipe && (
          <>
            <dt>Cliente</dt>
            <dd>{l.nome_cliente}</dd>
          </>
        )}
        <dt>Veículo</dt>
        <dd>
          {l.categoria} / {l.modelo_veiculo}
          {l.placa ? ` (${l.placa})` : ''}
        </dd>
        <dt>Retirada</dt>
        <dd>
          {formatarData(l.data_retirada)} às {l.hora_retirada}
        </dd>
        <dt>Entrega</dt>
        <dd>
          {formatarData(l.data_entrega)} às {l.hora_entrega}
        </dd>
        <dt>Adicional</dt>
        <dd>{l.adicional}</dd>
        <dt>Total</dt>
        <dd>{formatarReais(l.vl_total)}</dd>
      </dl>
    </section>
  );
}

function LocalDeRetirada({ local }: { local: Localizacao['local'] | null | undefined }) {
  const configuracao = useConfiguracao();
  if (!temCoordenadas(local)) {
    return (
      <section className="cartao" aria-labelledby="titulo-local-retirada">
        <h2 id="titulo-local-retirada">Local de retirada</h2>
        <Alerta tipo="info">Endereço desconhecido</Alerta>
      </section>
    );
  }
  // Without the settings there is no tile server to ask: the map shows the marker alone.
  const tiles = configuracao.data
    ? { url: configuracao.data.mapa.urlDosTiles, atribuicao: configuracao.data.mapa.atribuicao }
    : null;
  return (
    <section className="cartao" aria-labelledby="titulo-local-retirada">
      <h2 id="titulo-local-retirada">Local de retirada: {local.nome}</h2>
      {configuracao.isPending ? (
        <Carregando texto="Carregando o mapa…" />
      ) : (
        <MapaDoLocal key={local.id_local} local={local} tiles={tiles} />
      )}
      <address className="localizacao__endereco">
        {local.endereco}, {local.bairro}, {local.cidade} - {local.uf}
      </address>
      <p className="localizacao__nota">
        <a href={linkDoOpenStreetMap(local)} target="_blank" rel="noopener noreferrer">
          Abrir no OpenStreetMap (nova aba)
        </a>
      </p>
    </section>
  );
}

function Falha({ erro, tentarDeNovo }: { erro: unknown; tentarDeNovo: () => void }) {
  // Someone else's reservation answers 404 too: the server never tells which codes exist.
  if (erro instanceof ErroDaApi && erro.status === 404)
    return (
      <Alerta tipo="erro">
        <p>Locação não encontrada. Confira o código e tente de novo.</p>
      </Alerta>
    );
  return <ErroDeCarga erro={erro} tentarDeNovo={tentarDeNovo} />;
}

/**
 * /localizacao: a reservation looked up by its code, with the pickup place on a map. The lookup
 * waits until the person stops typing (one request, not one per key), and a lookup typed past
 * is aborted.
 */
export default function PaginaLocalizacao() {
  const usuario = useUsuario();
  const equipe = ehEquipe(usuario);
  const [parametros, setParametros] = useSearchParams();
  const [texto, setTexto] = useState(() => parametros.get('codigo') ?? '');
  // Enter looks up at once; otherwise the code is read once typing pauses.
  const [confirmado, setConfirmado] = useState<string | null>(null);
  const atrasado = useValorAtrasado(texto.trim(), ESPERA_MS);
  const codigo = confirmado !== null && confirmado === texto.trim() ? confirmado : atrasado;
  const id = idDoCodigo(codigo);
  const consulta = useLocalizacao(id);
  const recentes = useLocacoes({ pagina: 1, status: '' });

  useEffect(() => {
    // The code in the address, so the page can be reloaded or shared as it is.
    if ((parametros.get('codigo') ?? '') !== codigo)
      setParametros(codigo ? { codigo } : {}, { replace: true });
  }, [codigo, parametros, setParametros]);

  const erroDoCampo =
    codigo !== '' && id === null
      ? 'Código inválido: use LOC-000011 ou apenas o número.'
      : undefined;

  return (
    <Pagina
      titulo="Localização"
      descricao="Consulte uma locação pelo código e veja no mapa onde retirar o veículo."
    >
      <div className="localizacao">
        <form
          role="search"
          className="cartao localizacao__busca"
          onSubmit={(e) => {
            e.preventDefault();
            setConfirmado(texto.trim());
          }}
        >
          <Campo
            rotulo="Código da locação"
            placeholder="LOC-000011"
            autoComplete="off"
            spellCheck={false}
            value={texto}
            erro={erroDoCampo}
            dica="O código (LOC-000011) ou só o número. A busca começa quando você para de digitar."
            onChange={(e) => setTexto(e.target.value)}
          />
          {recentes.data && recentes.data.length > 0 && (
            <>
              <p className="localizacao__nota" id="titulo-recentes">
                {equipe ? 'Reservas recentes:' : 'Suas reservas:'}
              </p>
              <ul className="localizacao__recentes" aria-labelledby="titulo-recentes">
                {recentes.data.slice(0, 5).map((l) => (
                  <li key={l.id_locacao}>
                    <button
                      type="button"
                      className="botao botao--secundario botao--pequeno"
                      onClick={() => {
                        setTexto(l.codigo);
                        setConfirmado(l.codigo);
                      }}
                    >
                      {l.codigo}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </form>

        {id !== null && consulta.isPending && <Carregando texto="Buscando a locação…" />}
        {id !== null && consulta.isError && (
          <Falha erro={consulta.error} tentarDeNovo={() => void consulta.refetch()} />
        )}
        {id !== null && consulta.data && (
          <div className="localizacao__resultado">
            <Detalhes dados={consulta.data} equipe={equipe} />
            <LocalDeRetirada local={consulta.data.local} />
          </div>
        )}
      </div>
    </Pagina>
  );
}
