import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { categoriaSchema } from '@locadora/contract/frota';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { mensagemDoErro } from '../../../lib/api';
import { formatarReais } from '../../../lib/formatos';
import { Campo, CampoMarcacao } from '../../../components/Campo';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import {
  useCategorias,
  useExcluirCategoria,
  useGravarCategoria,
  type Categoria,
} from '../api/categorias';
import { normalizarReais, reaisParaCampo } from '../reais';
import './categoria.css';

// The daily value is typed the Brazilian way (89,90) and then checked by the contract's rule.
const formularioSchema = categoriaSchema.extend({
  vl_categoria: z.preprocess(
    (v) => (typeof v !== 'string' ? v : v.trim() === '' ? undefined : normalizarReais(v)),
    categoriaSchema.shape.vl_categoria,
  ),
  ind_promocao: z.boolean(),
});
type Valores = z.input<typeof formularioSchema>;
type Dados = z.output<typeof formularioSchema>;

const CAMPOS = ['desc_categoria', 'vl_categoria', 'ind_promocao'] as const;

const valoresDe = (c: Categoria | null): Valores => ({
  desc_categoria: c?.desc_categoria ?? '',
  vl_categoria: c ? reaisParaCampo(c.vl_categoria) : '',
  ind_promocao: c?.ind_promocao ?? false,
});

function FormularioDeCategoria({
  categoria,
  focar,
  aoGravar,
  aoNovo,
  aoExcluir,
}: {
  categoria: Categoria | null;
  focar: boolean;
  aoGravar: (c: Categoria) => void;
  aoNovo: () => void;
  aoExcluir: () => void;
}) {
  const gravar = useGravarCategoria();
  const excluir = useExcluirCategoria();
  const avisar = useAvisos();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const [confirmando, setConfirmando] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors },
  } = useForm<Valores, unknown, Dados>({
    resolver: zodResolver(formularioSchema),
    defaultValues: valoresDe(categoria),
  });

  useEffect(() => {
    if (focar) setFocus('vl_categoria');
  }, [focar, setFocus]);

  const enviar = handleSubmit(async (dados) => {
    setErroGeral(null);
    try {
      const salva = await gravar.mutateAsync({ id: categoria?.id_categoria ?? null, dados });
      reset(valoresDe(salva));
      avisar(categoria ? 'Categoria Atualizada!' : 'Categoria Cadastrada!');
      aoGravar(salva);
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  async function confirmarExclusao() {
    if (!categoria) return;
    try {
      await excluir.mutateAsync(categoria.id_categoria);
      setConfirmando(false);
      avisar('Categoria excluída!');
      aoExcluir();
    } catch (erro) {
      // A category in use answers 409 with the reason: it stays, and the reason is shown.
      setConfirmando(false);
      setErroGeral(mensagemDoErro(erro));
    }
  }

  return (
    <form onSubmit={enviar} noValidate className="formulario formulario--grade">
      {erroGeral && (
        <div className="formulario__acoes">
          <Alerta tipo="erro">{erroGeral}</Alerta>
        </div>
      )}
      <Campo
        rotulo="Código"
        readOnly
        value={categoria ? String(categoria.id_categoria) : ''}
        dica={categoria ? undefined : 'Gerado ao gravar.'}
      />
      <Campo
        rotulo="Valor da diária (R$)"
        inputMode="decimal"
        autoComplete="off"
        dica="Use vírgula para os centavos, por exemplo 89,90."
        erro={errors.vl_categoria?.message}
        {...register('vl_categoria')}
      />
      <Campo
        rotulo="Descrição"
        erro={errors.desc_categoria?.message}
        {...register('desc_categoria')}
      />
      <div className="categoria__promocao">
        <CampoMarcacao
          rotulo="Em promoção"
          erro={errors.ind_promocao?.message}
          {...register('ind_promocao')}
        />
      </div>
      <div className="formulario__acoes">
        <button type="button" className="botao botao--secundario" onClick={aoNovo}>
          Novo Registro
        </button>
        <button type="submit" className="botao" disabled={gravar.isPending}>
          {gravar.isPending ? 'Gravando…' : 'Gravar'}
        </button>
        <button
          type="button"
          className="botao botao--perigo"
          disabled={!categoria}
          onClick={() => {
            setErroGeral(null);
            setConfirmando(true);
          }}
        >
          Excluir
        </button>
      </div>
      <Confirmacao
        aberta={confirmando}
        titulo="Excluir categoria?"
        confirmar="Excluir"
        perigosa
        ocupada={excluir.isPending}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setConfirmando(false)}
      >
        {categoria && (
          <p>
            A categoria {categoria.desc_categoria} será excluída. Categorias com modelos ou locações
            não podem ser excluídas.
          </p>
        )}
      </Confirmacao>
    </form>
  );
}

/** /categoria (staff): vehicle categories; a selected one is changed, none is created. */
export default function PaginaCategoria() {
  const categorias = useCategorias();
  const [selecionadaId, setSelecionadaId] = useState<number | null>(null);
  // Remounted with fresh values when a category is picked or a new record asked for, not
  // after a save, so focus stays on Gravar.
  const [versao, setVersao] = useState(0);
  const [focar, setFocar] = useState(false);
  const selecionada = categorias.data?.find((c) => c.id_categoria === selecionadaId) ?? null;

  const formulario = useRef<HTMLElement>(null);

  const abrir = (id: number | null, focarFormulario: boolean) => {
    setSelecionadaId(id);
    setFocar(focarFormulario);
    setVersao((v) => v + 1);
    // On a phone the form is below the list: bring it into view (a no-op when it already is).
    formulario.current?.scrollIntoView({ block: 'nearest' });
  };

  return (
    <Pagina titulo="Categorias" descricao="Categorias de veículos e o valor da diária de cada uma.">
      <div className="colunas">
        <section className="cartao" aria-labelledby="titulo-lista-categorias">
          <h2 id="titulo-lista-categorias">Categorias cadastradas</h2>
          {categorias.isPending && <Carregando />}
          {categorias.isError && (
            <ErroDeCarga erro={categorias.error} tentarDeNovo={() => void categorias.refetch()} />
          )}
          {categorias.data?.length === 0 && (
            <Vazio>Nenhuma categoria cadastrada. Cadastre a primeira no formulário.</Vazio>
          )}
          {categorias.data && categorias.data.length > 0 && (
            <ul className="lista-selecionavel categoria__lista">
              {categorias.data.map((c) => (
                <li key={c.id_categoria}>
                  <button
                    type="button"
                    aria-pressed={c.id_categoria === selecionadaId}
                    onClick={() => abrir(c.id_categoria, false)}
                  >
                    <span className="categoria__nome">{c.desc_categoria}</span>{' '}
                    <span className="categoria__detalhe">
                      {formatarReais(c.vl_categoria)}/dia{' '}
                      {c.ind_promocao && <span className="categoria__selo">Promoção</span>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section ref={formulario} className="cartao" aria-labelledby="titulo-formulario-categoria">
          <h2 id="titulo-formulario-categoria">
            {selecionada ? `Editar ${selecionada.desc_categoria}` : 'Nova categoria'}
          </h2>
          <FormularioDeCategoria
            key={versao}
            categoria={selecionada}
            focar={focar}
            aoGravar={(c) => setSelecionadaId(c.id_categoria)}
            aoNovo={() => abrir(null, true)}
            aoExcluir={() => abrir(null, true)}
          />
        </section>
      </div>
    </Pagina>
  );
}
