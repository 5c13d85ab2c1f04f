import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { infracaoSchema } from '@locadora/contract/operacao';
import { ErroDaApi, mensagemDoErro } from '../../../lib/api';
import { formatarData, formatarDataHora, formatarReais, hojeLocal } from '../../../lib/formatos';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { ehEquipe, useUsuario } from '../../../lib/sessao';
import { Campo, CampoTextoLongo } from '../../../components/Campo';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import {
  chaveDoContrato,
  useInfracoesDoContrato,
  useInfracoesRecentes,
  useRegistrarInfracao,
  type Infracao,
} from '../api/infracoes';
import { idDoContrato, MENSAGEM_CONTRATO_INVALIDO } from '../contrato';
import { agoraEmBH, instanteDeBH } from '../instante';
import { normalizarReais } from '../reais';
import './infracoes.css';

const plural = (n: number, um: string, varios: string) => (n === 1 ? `1 ${um}` : `${n} ${varios}`);

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
  aoBuscar,
}: {
  inicial: string;
  aoBuscar: (contrato: number) => void;
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
    aoBuscar(contrato);
  }

  return (
    <form onSubmit={enviar} noValidate className="infracoes__consulta">
      <Campo
        rotulo="Número do contrato"
        autoComplete="off"
        dica={
          <>
            O número (123) ou o código do contrato (
            <span className="infracoes__sem-quebra">LOC-000123</span>).
          </>
        }
        value={texto}
        erro={erro}
        onChange={(e) => setTexto(e.target.value)}
      />
      <button type="submit" className="botao">
        Buscar Infração
      </button>
    </form>
  );
}

function CartaoDeInfracao({ infracao }: { infracao: Infracao }) {
  const prazo = infracao.prazo_indicacao_condutor;
  const vencido = prazo !== '' && prazo < hojeLocal();
  return (
    <li className="cartao infracoes__item">
      <h3>{infracao.descricao}</h3>
      <dl className="infracoes__dados">
        <div>
          <dt>Data e hora</dt>
          <dd>{formatarDataHora(infracao.data)}</dd>
        </div>
        <div>
          <dt>Valor</dt>
          <dd>{formatarReais(infracao.valor)}</dd>
        </div>
        <div>
          <dt>Placa</dt>
          <dd>{infracao.placa}</dd>
        </div>
        {prazo && (
          <div>
            <dt>Indicar o condutor até</dt>
            <dd>
              {formatarData(prazo)}
              {vencido && <span className="infracoes__vencido"> (prazo encerrado)</span>}
            </dd>
          </div>
        )}
        <div className="infracoes__largo">
          <dt>Local</dt>
          <dd>{infracao.local}</dd>
        </div>
      </dl>
    </li>
  );
}

function ResultadoDaConsulta({ contrato, focar }: { contrato: number; focar: number }) {
  const consulta = useInfracoesDoContrato(contrato);
  const titulo = useRef<HTMLHeadingElement>(null);
  // Opened from elsewhere on the page: focus (and the view) moves to the result.
  useEffect(() => {
    if (focar > 0) titulo.current?.focus();
  }, [focar]);
  const total = consulta.data?.reduce((soma, i) => soma + Math.round(i.valor * 100), 0) ?? 0;
  return (
    <section className="cartao" aria-labelledby="titulo-resultado-infracoes">
      <h2 id="titulo-resultado-infracoes" ref={titulo} tabIndex={-1}>
        Infrações do contrato nº {contrato}
      </h2>
      {consulta.isPending && <Carregando texto="Buscando infrações…" />}
      {consulta.isError && (
        <Alerta tipo="erro">
          <p>{mensagemDaConsulta(consulta.error, contrato)}</p>
        </Alerta>
      )}
      {consulta.data?.length === 0 && (
        <div role="status">
          <Vazio>Nenhuma infração para este contrato.</Vazio>
        </div>
      )}
      {consulta.data && consulta.data.length > 0 && (
        <>
          <p role="status" className="infracoes__resumo">
            {plural(consulta.data.length, 'infração encontrada', 'infrações encontradas')}, total de{' '}
            {formatarReais(total / 100)}.
          </p>
          <ul className="infracoes__lista">
            {consulta.data.map((i) => (
              <CartaoDeInfracao key={i.id_infracao} infracao={i} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

// The register form: the contract's own rules for plate, text and value; the moment is typed
// on Belo Horizonte's clock and sent with its offset.
const registroSchema = z.object({
  placa: infracaoSchema.shape.placa,
  data_hora: z
    .string()
    .min(1, { error: 'Informe a data e a hora da infração.' })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { error: 'Data e hora inválidas.' })
    .refine((v) => v <= agoraEmBH(), { error: 'A data da infração não pode ser no futuro.' })
    .transform(instanteDeBH),
  descricao: infracaoSchema.shape.descricao,
  valor: z.preprocess(
    (v) => (typeof v !== 'string' ? v : v.trim() === '' ? undefined : normalizarReais(v)),
    infracaoSchema.shape.valor,
  ),
  local: infracaoSchema.shape.local,
});
type ValoresDoRegistro = z.input<typeof registroSchema>;
type DadosDoRegistro = z.output<typeof registroSchema>;
const CAMPOS_DO_REGISTRO = ['placa', 'data_hora', 'descricao', 'valor', 'local'] as const;
const REGISTRO_VAZIO: ValoresDoRegistro = {
  placa: '',
  data_hora: '',
  descricao: '',
  valor: '',
  local: '',
};

function RegistroDeInfracao({ aoVerContrato }: { aoVerContrato: (contrato: number) => void }) {
  const registrar = useRegistrarInfracao();
  const avisar = useAvisos();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const [registrada, setRegistrada] = useState<Infracao | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ValoresDoRegistro, unknown, DadosDoRegistro>({
    resolver: zodResolver(registroSchema),
    defaultValues: REGISTRO_VAZIO,
  });

  const enviar = handleSubmit(async (dados) => {
    setErroGeral(null);
    setRegistrada(null);
    try {
      const infracao = await registrar.mutateAsync(dados);
      reset(REGISTRO_VAZIO);
      setRegistrada(infracao);
      avisar('Infração registrada!');
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS_DO_REGISTRO));
    }
  });

  const contratoRegistrado = registrada?.id_locacao ?? null;

  return (
    <section className="cartao" aria-labelledby="titulo-registro-infracao">
      <h2 id="titulo-registro-infracao">Registrar infração</h2>
      <p className="infracoes__explicacao">
        A infração é ligada ao contrato que estava com o veículo na data e hora informadas.
      </p>
      {registrada && (
        <Alerta tipo="sucesso">
          {contratoRegistrado === null ? (
            <p>
              Infração registrada para a placa {registrada.placa}. Nenhum contrato estava com o
              veículo nesse momento: a infração fica com a locadora.
            </p>
          ) : (
            <>
              <p>
                Infração registrada para a placa {registrada.placa} no contrato nº{' '}
                {contratoRegistrado}.
              </p>
              <button
                type="button"
                className="botao botao--secundario botao--pequeno"
                onClick={() => aoVerContrato(contratoRegistrado)}
              >
                Ver infrações do contrato nº {contratoRegistrado}
              </button>
            </>
          )}
        </Alerta>
      )}
      {erroGeral && <Alerta tipo="erro">{erroGeral}</Alerta>}
      <form onSubmit={enviar} noValidate className="formulario formulario--grade">
        <Campo
          rotulo="Placa"
          autoComplete="off"
          autoCapitalize="characters"
          dica={
            <>
              Mercosul (ABC1D23) ou antiga (<span className="infracoes__sem-quebra">ABC-1234</span>
              ).
            </>
          }
          erro={errors.placa?.message}
          {...register('placa')}
        />
        <Campo
          rotulo="Data e hora"
          type="datetime-local"
          max={agoraEmBH()}
          erro={errors.data_hora?.message}
          {...register('data_hora')}
        />
        <Campo
          rotulo="Valor da multa (R$)"
          inputMode="decimal"
          autoComplete="off"
          dica="Por exemplo 195,23."
          erro={errors.valor?.message}
          {...register('valor')}
        />
        <Campo rotulo="Local" erro={errors.local?.message} {...register('local')} />
        <div className="infracoes__largo">
          <CampoTextoLongo
            rotulo="Descrição"
            rows={2}
            erro={errors.descricao?.message}
            {...register('descricao')}
          />
        </div>
        <div className="formulario__acoes">
          <button type="submit" className="botao" disabled={registrar.isPending}>
            {registrar.isPending ? 'Registrando…' : 'Registrar infração'}
          </button>
        </div>
      </form>
    </section>
  );
}

function InfracoesRecentes({
  equipe,
  aoVerContrato,
}: {
  equipe: boolean;
  aoVerContrato: (contrato: number) => void;
}) {
  const recentes = useInfracoesRecentes();
  return (
    <section className="cartao" aria-labelledby="titulo-infracoes-recentes">
      <h2 id="titulo-infracoes-recentes">
        {equipe ? 'Infrações registradas recentemente' : 'Suas infrações'}
      </h2>
      {recentes.isPending && <Carregando />}
      {recentes.isError && (
        <ErroDeCarga erro={recentes.error} tentarDeNovo={() => void recentes.refetch()} />
      )}
      {recentes.data?.length === 0 && (
        <Vazio>
          {equipe
            ? 'Nenhuma infração registrada.'
            : 'Nenhuma infração registrada nos seus contratos.'}
        </Vazio>
      )}
      {recentes.data && recentes.data.length > 0 && (
        <div className="tabela-rolavel" role="region" aria-label="Tabela de infrações" tabIndex={0}>
          <table className="tabela">
            <thead>
              <tr>
                <th scope="col">Data e hora</th>
                <th scope="col">Placa</th>
                <th scope="col">Descrição</th>
                <th scope="col">Valor</th>
                <th scope="col">Contrato</th>
              </tr>
            </thead>
            <tbody>
              {recentes.data.map(({ id_locacao: contratoDaMulta, ...i }) => (
                <tr key={i.id_infracao}>
                  <td className="infracoes__sem-quebra">{formatarDataHora(i.data)}</td>
                  <td className="infracoes__sem-quebra">{i.placa}</td>
                  <td className="infracoes__descricao">{i.descricao}</td>
                  <td className="infracoes__sem-quebra">{formatarReais(i.valor)}</td>
                  <td>
                    {contratoDaMulta === null ? (
                      'Da locadora'
                    ) : (
                      <button
                        type="button"
                        className="botao botao--secundario botao--pequeno"
                        aria-label={`Ver infrações do contrato nº ${contratoDaMulta}`}
                        onClick={() => aoVerContrato(contratoDaMulta)}
                      >
                        nº {contratoDaMulta}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * /infracoes: anyone looks up the fines of a contract (customers only their own, the server
 * decides); staff also register fines by plate.
 */
export default function PaginaInfracoes() {
  const usuario = useUsuario();
  const equipe = ehEquipe(usuario);
  const queryClient = useQueryClient();
  const [parametros, setParametros] = useSearchParams();
  const contrato = idDoContrato(parametros.get('contrato') ?? '');
  const [focarResultado, setFocarResultado] = useState(0);

  const buscar = (id: number) => {
    // Asking again for the same contract reads it again (a fine may have just been added).
    void queryClient.invalidateQueries({ queryKey: chaveDoContrato(id) });
    setParametros({ contrato: String(id) });
  };
  const verContrato = (id: number) => {
    buscar(id);
    setFocarResultado((n) => n + 1);
  };

  return (
    <Pagina
      titulo="Infrações"
      descricao={
        equipe
          ? 'Consulte as multas de um contrato e registre novas infrações.'
          : 'Consulte as multas de trânsito dos seus contratos.'
      }
    >
      <div className="infracoes">
        <section className="cartao" aria-labelledby="titulo-consulta-infracoes">
          <h2 id="titulo-consulta-infracoes">Consultar por contrato</h2>
          <FormularioDeConsulta
            inicial={contrato === null ? '' : String(contrato)}
            aoBuscar={buscar}
          />
        </section>
        {contrato !== null && <ResultadoDaConsulta contrato={contrato} focar={focarResultado} />}
        {equipe && <RegistroDeInfracao aoVerContrato={verContrato} />}
        <InfracoesRecentes equipe={equipe} aoVerContrato={verContrato} />
      </div>
    </Pagina>
  );
}
