import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { perfilSchema } from '@locadora/contract/contas';
import { CATEGORIAS_CNH } from '@locadora/contract/cnh';
import { formatarCpf } from '@locadora/contract/cpf';
import { paths } from '../../../config/paths';
import { mensagemDoErro } from '../../../lib/api';
import { formatarData } from '../../../lib/formatos';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { useSessao } from '../../../lib/sessao';
import { Campo, CampoSelecao } from '../../../components/Campo';
import { Confirmacao } from '../../../components/Confirmacao';
import { Alerta, Carregando, ErroDeCarga } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import {
  useAtualizarPerfil,
  useBaixarMeusDados,
  useExcluirConta,
  useMeuPerfil,
  useReenviarConfirmacao,
  type AlteracaoDePerfil,
  type Perfil,
} from '../api/perfil';

const CAMPOS = [
  'nome',
  'telefone',
  'categoriaHabilitacao',
  'rua',
  'numero',
  'bairro',
  'cidade',
  'municipio',
] as const;

function FormularioDePerfil({ perfil }: { perfil: Perfil }) {
  const atualizar = useAtualizarPerfil();
  const avisar = useAvisos();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
    reset,
  } = useForm<AlteracaoDePerfil>({
    resolver: zodResolver(perfilSchema),
    defaultValues: Object.fromEntries(CAMPOS.map((c) => [c, perfil[c] ?? ''])),
  });

  const enviar = handleSubmit(async (dados) => {
    setErroGeral(null);
    try {
      const novo = await atualizar.mutateAsync(dados);
      reset(Object.fromEntries(CAMPOS.map((c) => [c, novo[c] ?? ''])));
      avisar('Dados atualizados.');
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  return (
    <form onSubmit={enviar} noValidate className="formulario formulario--grade">
      {erroGeral && (
        <div className="formulario__acoes">
          <Alerta tipo="erro">{erroGeral}</Alerta>
        </div>
      )}
      <Campo rotulo="Nome completo" erro={errors.nome?.message} {...register('nome')} />
      <Campo
        rotulo="Celular"
        type="tel"
        erro={errors.telefone?.message}
        {...register('telefone')}
      />
      <CampoSelecao
        rotulo="Categoria da CNH"
        erro={errors.categoriaHabilitacao?.message}
        {...register('categoriaHabilitacao')}
      >
        {CATEGORIAS_CNH.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </CampoSelecao>
      <Campo rotulo="Rua" erro={errors.rua?.message} {...register('rua')} />
      <Campo rotulo="Número" erro={errors.numero?.message} {...register('numero')} />
      <Campo rotulo="Bairro" erro={errors.bairro?.message} {...register('bairro')} />
      <Campo rotulo="Cidade" erro={errors.cidade?.message} {...register('cidade')} />
      <Campo rotulo="Município" erro={errors.municipio?.message} {...register('municipio')} />
      <div className="formulario__acoes">
        <button type="submit" className="botao" disabled={!isDirty || atualizar.isPending}>
          {atualizar.isPending ? 'Salvando…' : 'Salvar alterações'}
        </button>
      </div>
    </form>
  );
}

/** Whether the address is confirmed; if not, the way to get a new link ("reenviar"). */
function ConfirmacaoDoEmail({ perfil }: { perfil: Perfil }) {
  const reenviar = useReenviarConfirmacao();
  if (perfil.emailVerificado) return <p className="dados__nota">E-mail confirmado.</p>;
  return (
    <div className="dados__nota">
      <Alerta tipo="info">
        E-mail ainda não confirmado: você não recebe avisos por e-mail até confirmá-lo pelo link que
        enviamos a esse endereço.
      </Alerta>
      {reenviar.isSuccess && (
        <Alerta tipo="sucesso">Enviamos um novo link de confirmação ao seu e-mail.</Alerta>
      )}
      {reenviar.isError && <Alerta tipo="erro">{mensagemDoErro(reenviar.error)}</Alerta>}
      <button
        type="button"
        className="botao botao--secundario"
        disabled={reenviar.isPending}
        onClick={() => reenviar.mutate()}
      >
        {reenviar.isPending ? 'Enviando…' : 'Reenviar e-mail de confirmação'}
      </button>
    </div>
  );
}

function ExclusaoDeConta() {
  const excluir = useExcluirConta();
  const { encerrarLocalmente } = useSessao();
  const navegar = useNavigate();
  const [aberta, setAberta] = useState(false);
  const [senha, setSenha] = useState('');
  const [erro, setErro] = useState<string | null>(null);

  async function confirmar() {
    if (!senha) {
      setErro('Confirme com a sua senha.');
      return;
    }
    setErro(null);
    try {
      await excluir.mutateAsync(senha);
      encerrarLocalmente();
      navegar(paths.login.caminho, { replace: true });
    } catch (e) {
      setErro(mensagemDoErro(e));
    }
  }

  return (
    <>
      <button type="button" className="botao botao--perigo" onClick={() => setAberta(true)}>
        Excluir minha conta
      </button>
      <Confirmacao
        aberta={aberta}
        titulo="Excluir sua conta?"
        confirmar="Excluir definitivamente"
        perigosa
        ocupada={excluir.isPending}
        aoConfirmar={() => void confirmar()}
        aoCancelar={() => {
          setAberta(false);
          setSenha('');
          setErro(null);
        }}
      >
        <p>
          Seus dados pessoais serão anonimizados e você não poderá mais entrar. Contratos e
          infrações continuam guardados, como a lei exige.
        </p>
        <Campo
          rotulo="Sua senha"
          type="password"
          autoComplete="current-password"
          value={senha}
          erro={erro ?? undefined}
          onChange={(e) => setSenha(e.target.value)}
        />
      </Confirmacao>
    </>
  );
}

export default function PaginaConta() {
  const perfil = useMeuPerfil();
  const baixar = useBaixarMeusDados();

  return (
    <Pagina titulo="Minha conta" descricao="Seus dados, sua privacidade.">
      {perfil.isPending && <Carregando />}
      {perfil.isError && (
        <ErroDeCarga erro={perfil.error} tentarDeNovo={() => void perfil.refetch()} />
      )}
      {perfil.data && (
        <div className="formulario">
          <section className="cartao" aria-labelledby="titulo-perfil">
            <h2 id="titulo-perfil">Perfil</h2>
            <dl className="dados">
              <dt>E-mail</dt>
              <dd>{perfil.data.email}</dd>
              <dt>CPF</dt>
              <dd>{perfil.data.cpf ? formatarCpf(perfil.data.cpf) : '—'}</dd>
              <dt>Data de nascimento</dt>
              <dd>{formatarData(perfil.data.dataNascimento)}</dd>
              <dt>Cliente desde</dt>
              <dd>{formatarData(perfil.data.criadoEm)}</dd>
            </dl>
            <ConfirmacaoDoEmail perfil={perfil.data} />
            <FormularioDePerfil perfil={perfil.data} />
          </section>
          <section className="cartao" aria-labelledby="titulo-privacidade">
            <h2 id="titulo-privacidade">Privacidade (LGPD)</h2>
            <p>Baixe uma cópia de todos os dados pessoais que a locadora guarda sobre você.</p>
            {baixar.isError && <Alerta tipo="erro">{mensagemDoErro(baixar.error)}</Alerta>}
            <div className="acoes">
              <button
                type="button"
                className="botao botao--secundario"
                onClick={() => baixar.mutate()}
                disabled={baixar.isPending}
              >
                {baixar.isPending ? 'Preparando…' : 'Baixar meus dados (JSON)'}
              </button>
              <ExclusaoDeConta />
            </div>
          </section>
        </div>
      )}
    </Pagina>
  );
}
