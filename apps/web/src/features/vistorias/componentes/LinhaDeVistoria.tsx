import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { TIPOS_VISTORIA } from '@locadora/contract/dominio';
import { vistoriaSchema, type VistoriaPedido } from '@locadora/contract/operacao';
import { paths } from '../../../config/paths';
import { formatarData, hojeLocal } from '../../../lib/formatos';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { useAvisos } from '../../../components/Avisos';
import { useAtualizarVistoria, type Vistoria } from '../api/vistorias';
import { ouIndefinido, resolverDoContrato } from '../formulario';

interface Edicao {
  data_vistoria: string;
  tipo: string;
  descricao: string;
  observacoes: string;
  cria_ordem_manut: boolean;
}
const CAMPOS = ['data_vistoria', 'tipo', 'descricao', 'observacoes', 'cria_ordem_manut'] as const;

const diaDe = (instante: string) => hojeLocal(new Date(instante));

const valoresDe = (v: Vistoria): Edicao => ({
  data_vistoria: diaDe(v.data),
  tipo: String(v.tipo),
  descricao: v.descricao,
  observacoes: v.observacoes ?? '',
  cria_ordem_manut: false,
});

const milhar = new Intl.NumberFormat('pt-BR');

/** An error under an inline input, tied to it by id (aria-describedby). */
function ErroDaCelula({ id, mensagem }: { id: string; mensagem: string | undefined }) {
  return mensagem ? (
    <span id={id} className="campo__erro">
      {mensagem}
    </span>
  ) : null;
}

/**
 * One inspection of the search table: read mode, or inline inputs (Editar) saved with Salvar
 * (PUT) or put back with Cancelar or Esc. The inputs belong to a form in the actions cell (the
 * `form` attribute), so Enter saves as in any form.
 */
export function LinhaDeVistoria({
  vistoria,
  nova,
  aoExcluir,
  aoFalhar,
}: {
  vistoria: Vistoria;
  nova: boolean;
  aoExcluir: (v: Vistoria) => void;
  aoFalhar: (mensagem: string | null) => void;
}) {
  const [editando, setEditando] = useState(false);
  const atualizar = useAtualizarVistoria();
  const avisar = useAvisos();
  const id = vistoria.id_vistoria;
  const idForm = `vistoria-${id}-edicao`;
  const rotulo = `vistoria nº ${id}`;

  const resolver = useMemo(
    () =>
      resolverDoContrato(
        vistoriaSchema,
        (f: Edicao) => ({
          id_veiculo: vistoria.id_veiculo,
          // An unchanged day keeps the time of day the inspection was registered at.
          data_vistoria:
            f.data_vistoria === diaDe(vistoria.data)
              ? vistoria.data
              : ouIndefinido(f.data_vistoria),
          tipo: ouIndefinido(f.tipo),
          descricao: f.descricao,
          observacoes: f.observacoes,
          cria_ordem_manut: f.cria_ordem_manut,
        }),
        { data_vistoria: 'Informe a data da vistoria.', tipo: 'Escolha o tipo da vistoria.' },
      ),
    [vistoria.id_veiculo, vistoria.data],
  );
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<Edicao, unknown, VistoriaPedido>({ resolver, defaultValues: valoresDe(vistoria) });

  // Focus follows the mode: into the first input on Editar, back to Editar on leaving. Only a
  // change of mode moves it (not the first render, nor StrictMode's second effect run).
  const botaoEditar = useRef<HTMLButtonElement>(null);
  const modoAnterior = useRef(editando);
  useEffect(() => {
    if (modoAnterior.current === editando) return;
    modoAnterior.current = editando;
    if (editando) setFocus('data_vistoria');
    else botaoEditar.current?.focus();
  }, [editando, setFocus]);

  function abrir() {
    reset(valoresDe(vistoria));
    aoFalhar(null);
    setEditando(true);
  }
  const fechar = () => setEditando(false);

  const salvar = handleSubmit(async (pedido) => {
    aoFalhar(null);
    try {
      await atualizar.mutateAsync({ id, pedido });
      avisar('Vistoria atualizada com sucesso.');
      fechar();
    } catch (erro) {
      const resto = aplicarErrosDoServidor(erro, setError, CAMPOS);
      if (resto) aoFalhar(`Erro ao atualizar a vistoria: ${resto}`);
    }
  });

  const descrito = (campo: keyof Edicao) =>
    errors[campo] ? { 'aria-invalid': true, 'aria-describedby': `${idForm}-${campo}` } : {};

  const ordem =
    vistoria.id_manutencao !== null ? (
      <Link
        to={`${paths.manutencao.caminho}?veiculo=${vistoria.id_veiculo}&ordem=${vistoria.id_manutencao}`}
      >
        Ordem nº {vistoria.id_manutencao}
      </Link>
    ) : null;

  if (!editando)
    return (
      <tr className={nova ? 'vistorias__linha--nova' : undefined}>
        <td data-rotulo="Data">{formatarData(vistoria.data)}</td>
        <td data-rotulo="Tipo">{vistoria.tipo_descricao}</td>
        <td data-rotulo="Descrição">
          <span className="vistorias__texto">{vistoria.descricao}</span>
          {(vistoria.quilometragem !== null || vistoria.id_locacao !== null) && (
            <span className="vistorias__detalhes">
              {[
                vistoria.quilometragem !== null && `${milhar.format(vistoria.quilometragem)} km`,
                vistoria.id_locacao !== null && `Contrato nº ${vistoria.id_locacao}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          )}
        </td>
        <td data-rotulo="Observações">
          <span className="vistorias__texto">{vistoria.observacoes ?? '—'}</span>
        </td>
        <td data-rotulo="Manutenção">
          {ordem ?? (
            <Link to={`${paths.manutencao.caminho}?veiculo=${vistoria.id_veiculo}&vistoria=${id}`}>
              Abrir ordem
              <span className="visualmente-oculto"> de manutenção para a {rotulo}</span>
            </Link>
          )}
        </td>
        <td data-rotulo="Ações">
          <div className="acoes">
            <button
              ref={botaoEditar}
              type="button"
              className="botao botao--secundario botao--pequeno"
              onClick={abrir}
            >
              Editar<span className="visualmente-oculto"> {rotulo}</span>
            </button>
            <button
              type="button"
              className="botao botao--perigo botao--pequeno"
              onClick={() => aoExcluir(vistoria)}
            >
              Excluir<span className="visualmente-oculto"> {rotulo}</span>
            </button>
          </div>
        </td>
      </tr>
    );

  return (
    <tr
      className="vistorias__linha--edicao"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          fechar();
        }
      }}
    >
      <td data-rotulo="Data">
        <div className="campo">
          <input
            type="date"
            form={idForm}
            max={hojeLocal()}
            aria-label={`Data da ${rotulo}`}
            {...descrito('data_vistoria')}
            {...register('data_vistoria')}
          />
          <ErroDaCelula id={`${idForm}-data_vistoria`} mensagem={errors.data_vistoria?.message} />
        </div>
      </td>
      <td data-rotulo="Tipo">
        <div className="campo">
          <select
            form={idForm}
            aria-label={`Tipo da ${rotulo}`}
            {...descrito('tipo')}
            {...register('tipo')}
          >
            {Object.entries(TIPOS_VISTORIA).map(([valor, texto]) => (
              <option key={valor} value={valor}>
                {texto}
              </option>
            ))}
          </select>
          <ErroDaCelula id={`${idForm}-tipo`} mensagem={errors.tipo?.message} />
        </div>
      </td>
      <td data-rotulo="Descrição">
        <div className="campo">
          <textarea
            form={idForm}
            rows={3}
            aria-label={`Descrição da ${rotulo}`}
            {...descrito('descricao')}
            {...register('descricao')}
          />
          <ErroDaCelula id={`${idForm}-descricao`} mensagem={errors.descricao?.message} />
        </div>
      </td>
      <td data-rotulo="Observações">
        <div className="campo">
          <textarea
            form={idForm}
            rows={3}
            aria-label={`Observações da ${rotulo}`}
            {...descrito('observacoes')}
            {...register('observacoes')}
          />
          <ErroDaCelula id={`${idForm}-observacoes`} mensagem={errors.observacoes?.message} />
        </div>
      </td>
      <td data-rotulo="Manutenção">
        {ordem ?? (
          <label className="vistorias__marcacao">
            <input type="checkbox" form={idForm} {...register('cria_ordem_manut')} />
            Abrir ordem de reparo<span className="visualmente-oculto"> para a {rotulo}</span>
          </label>
        )}
      </td>
      <td data-rotulo="Ações">
        <form id={idForm} onSubmit={salvar} noValidate className="acoes">
          <button type="submit" className="botao botao--pequeno" disabled={atualizar.isPending}>
            {atualizar.isPending ? 'Salvando…' : 'Salvar'}
            <span className="visualmente-oculto"> {rotulo}</span>
          </button>
          <button type="button" className="botao botao--secundario botao--pequeno" onClick={fechar}>
            Cancelar<span className="visualmente-oculto"> edição da {rotulo}</span>
          </button>
        </form>
      </td>
    </tr>
  );
}
