import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { estoqueSchema } from '@locadora/contract/frota';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { mensagemDoErro } from '../../../lib/api';
import { Campo } from '../../../components/Campo';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta, Carregando, ErroDeCarga, Vazio } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import { useEstoques, useExcluirEstoque, useGravarEstoque, type Estoque } from '../api/estoques';
import './estoque.css';

// The form holds text; the quantity is checked by the contract's own rule (whole, 0 or more),
// after an empty box is told apart from a zero (coercion would read '' as 0).
const formularioSchema = estoqueSchema.extend({
  quantidade: z.preprocess(
    (v) => (typeof v !== 'string' ? v : v.trim() === '' ? undefined : v.trim().replace(',', '.')),
    estoqueSchema.shape.quantidade,
  ),
});
type Valores = z.input<typeof formularioSchema>;
type Dados = z.output<typeof formularioSchema>;

const CAMPOS = ['modelo_veiculo', 'marca_veiculo', 'cor_veiculo', 'quantidade'] as const;

const valoresDe = (e: Estoque | null): Valores => ({
  modelo_veiculo: e?.modelo_veiculo ?? '',
  marca_veiculo: e?.marca_veiculo ?? '',
  cor_veiculo: e?.cor_veiculo ?? '',
  quantidade: e ? String(e.quantidade) : '',
});

const nomeDe = (e: Pick<Estoque, 'modelo_veiculo' | 'cor_veiculo'>) =>
  `${e.modelo_veiculo} - ${e.cor_veiculo}`;

const unidades = (n: number) => (n === 1 ? '1 unidade' : `${n} unidades`);

function FormularioDeEstoque({
  estoque,
  focar,
  aoGravar,
  aoNovo,
  aoExcluir,
}: {
  estoque: Estoque | null;
  focar: boolean;
  aoGravar: (e: Estoque) => void;
  aoNovo: () => void;
  aoExcluir: () => void;
}) {
  const gravar = useGravarEstoque();
  const excluir = useExcluirEstoque();
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
    defaultValues: valoresDe(estoque),
  });

  useEffect(() => {
    if (focar) setFocus('modelo_veiculo');
  }, [focar, setFocus]);

  const enviar = handleSubmit(async (dados) => {
    setErroGeral(null);
    try {
      const salvo = await gravar.mutateAsync({ id: estoque?.id_estoque ?? null, dados });
      reset(valoresDe(salvo));
      avisar(estoque ? 'Veículo Atualizado no estoque!' : 'Veículo Cadastrado no estoque!');
      aoGravar(salvo);
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  async function confirmarExclusao() {
    if (!estoque) return;
    try {
      await excluir.mutateAsync(estoque.id_estoque);
      setConfirmando(false);
      avisar('Veículo excluído do estoque!');
      aoExcluir();
    } catch (erro) {
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
        value={estoque ? String(estoque.id_estoque) : ''}
        dica={estoque ? undefined : 'Gerado ao gravar.'}
      />
      <Campo
        rotulo="Modelo"
        erro={errors.modelo_veiculo?.message}
        {...register('modelo_veiculo')}
      />
      <Campo rotulo="Marca" erro={errors.marca_veiculo?.message} {...register('marca_veiculo')} />
      <Campo rotulo="Cor" erro={errors.cor_veiculo?.message} {...register('cor_veiculo')} />
      <Campo
        rotulo="Quantidade"
        inputMode="numeric"
        autoComplete="off"
        erro={errors.quantidade?.message}
        {...register('quantidade')}
      />
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
          disabled={!estoque}
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
        titulo="Excluir do estoque?"
        confirmar="Excluir"
        perigosa
        ocupada={excluir.isPending}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setConfirmando(false)}
      >
        {estoque && (
          <p>
            O registro {nomeDe(estoque)} ({estoque.marca_veiculo}, {unidades(estoque.quantidade)})
            será excluído do estoque.
          </p>
        )}
      </Confirmacao>
    </form>
  );
}

/** /estoque (staff): stock rows by model and colour; a selected row is changed, none is created. */
export default function PaginaEstoque() {
  const estoques = useEstoques();
  const [selecionadoId, setSelecionadoId] = useState<number | null>(null);
  // The form is remounted (fresh values) when the user picks a row or asks for a new record;
  // not after a save, so focus stays on Gravar.
  const [versao, setVersao] = useState(0);
  const [focar, setFocar] = useState(false);
  const selecionado = estoques.data?.find((e) => e.id_estoque === selecionadoId) ?? null;

  const formulario = useRef<HTMLElement>(null);

  const abrir = (id: number | null, focarFormulario: boolean) => {
    setSelecionadoId(id);
    setFocar(focarFormulario);
    setVersao((v) => v + 1);
    // On a phone the form is below the list: bring it into view (a no-op when it already is).
    formulario.current?.scrollIntoView({ block: 'nearest' });
  };

  return (
    <Pagina titulo="Estoque" descricao="Veículos em estoque por modelo e cor.">
      <div className="colunas">
        <section className="cartao" aria-labelledby="titulo-lista-estoque">
          <h2 id="titulo-lista-estoque">Veículos em estoque</h2>
          {estoques.isPending && <Carregando />}
          {estoques.isError && (
            <ErroDeCarga erro={estoques.error} tentarDeNovo={() => void estoques.refetch()} />
          )}
          {estoques.data?.length === 0 && (
            <Vazio>Nenhum veículo no estoque. Cadastre o primeiro no formulário.</Vazio>
          )}
          {estoques.data && estoques.data.length > 0 && (
            <ul className="lista-selecionavel estoque__lista">
              {estoques.data.map((e) => (
                <li key={e.id_estoque}>
                  <button
                    type="button"
                    aria-pressed={e.id_estoque === selecionadoId}
                    onClick={() => abrir(e.id_estoque, false)}
                  >
                    <span className="estoque__nome">{nomeDe(e)}</span>{' '}
                    <span className="estoque__quantidade">{unidades(e.quantidade)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section ref={formulario} className="cartao" aria-labelledby="titulo-formulario-estoque">
          <h2 id="titulo-formulario-estoque">
            {selecionado ? `Editar ${nomeDe(selecionado)}` : 'Novo registro'}
          </h2>
          <FormularioDeEstoque
            key={versao}
            estoque={selecionado}
            focar={focar}
            aoGravar={(e) => setSelecionadoId(e.id_estoque)}
            aoNovo={() => abrir(null, true)}
            aoExcluir={() => abrir(null, true)}
          />
        </section>
      </div>
    </Pagina>
  );
}
