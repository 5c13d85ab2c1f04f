import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Link, useNavigate } from 'react-router';
import { cadastroSchema } from '@locadora/contract/contas';
import { CATEGORIAS_CNH } from '@locadora/contract/cnh';
import { paths } from '../../../config/paths';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { Campo, CampoSelecao } from '../../../components/Campo';
import { Alerta } from '../../../components/Estados';
import { useCadastrar, type DadosDoCadastro } from '../api/cadastrar';

const CAMPOS = [
  'nome',
  'dataNascimento',
  'cpf',
  'telefone',
  'categoriaHabilitacao',
  'rua',
  'numero',
  'bairro',
  'cidade',
  'municipio',
  'email',
  'senha',
  'confirmacaoSenha',
] as const;

export default function PaginaCadastro() {
  const navegar = useNavigate();
  const cadastrar = useCadastrar();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<DadosDoCadastro, unknown, z.output<typeof cadastroSchema>>({
    resolver: zodResolver(cadastroSchema),
    mode: 'onTouched',
    defaultValues: { categoriaHabilitacao: 'B' },
  });

  useEffect(() => {
    document.title = 'Cadastro · Locadora';
  }, []);

  // The schema checks the form here as the server will; what is sent is what was typed (the
  // server wants the confirmation too).
  const enviar = handleSubmit(async () => {
    const dados = getValues();
    setErroGeral(null);
    try {
      await cadastrar.mutateAsync(dados);
      navegar(paths.login.caminho, { state: { cadastrado: dados.email } });
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  const erroDe = (campo: (typeof CAMPOS)[number]) => errors[campo]?.message;

  return (
    <div className="entrada">
      <main className="entrada__cartao entrada__cartao--largo" id="conteudo">
        <h1>Criar conta</h1>
        <p className="entrada__subtitulo">Preencha seus dados para reservar veículos.</p>
        {erroGeral && <Alerta tipo="erro">{erroGeral}</Alerta>}
        {Object.keys(errors).length > 0 && !erroGeral && (
          <Alerta tipo="erro">Verifique se todos os campos estão preenchidos corretamente.</Alerta>
        )}
        <form onSubmit={enviar} noValidate className="formulario formulario--grade">
          <Campo
            rotulo="Nome completo"
            autoComplete="name"
            erro={erroDe('nome')}
            {...register('nome')}
          />
          <Campo
            rotulo="Data de nascimento"
            type="date"
            autoComplete="bday"
            erro={erroDe('dataNascimento')}
            {...register('dataNascimento')}
          />
          <Campo
            rotulo="CPF"
            inputMode="numeric"
            placeholder="000.000.000-00"
            erro={erroDe('cpf')}
            {...register('cpf')}
          />
          <Campo
            rotulo="Celular"
            type="tel"
            autoComplete="tel-national"
            placeholder="(31) 99999-0000"
            erro={erroDe('telefone')}
            {...register('telefone')}
          />
          <CampoSelecao
            rotulo="Categoria da CNH"
            erro={erroDe('categoriaHabilitacao')}
            {...register('categoriaHabilitacao')}
          >
            {CATEGORIAS_CNH.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </CampoSelecao>
          <Campo
            rotulo="Rua"
            autoComplete="address-line1"
            erro={erroDe('rua')}
            {...register('rua')}
          />
          <Campo rotulo="Número" erro={erroDe('numero')} {...register('numero')} />
          <Campo rotulo="Bairro" erro={erroDe('bairro')} {...register('bairro')} />
          <Campo
            rotulo="Cidade"
            autoComplete="address-level2"
            erro={erroDe('cidade')}
            {...register('cidade')}
          />
          <Campo rotulo="Município" erro={erroDe('municipio')} {...register('municipio')} />
          <Campo
            rotulo="E-mail"
            type="email"
            autoComplete="email"
            erro={erroDe('email')}
            {...register('email')}
          />
          <Campo
            rotulo="Senha"
            type="password"
            autoComplete="new-password"
            dica="Pelo menos 8 caracteres."
            erro={erroDe('senha')}
            {...register('senha')}
          />
          <Campo
            rotulo="Repita a senha"
            type="password"
            autoComplete="new-password"
            erro={erroDe('confirmacaoSenha')}
            {...register('confirmacaoSenha')}
          />
          <div className="formulario__acoes">
            <button type="submit" className="botao" disabled={cadastrar.isPending}>
              {cadastrar.isPending ? 'Cadastrando…' : 'Cadastrar'}
            </button>
            <Link to={paths.login.caminho}>Já tenho conta</Link>
          </div>
        </form>
      </main>
    </div>
  );
}
