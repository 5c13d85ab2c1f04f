import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { avaliacaoSchema } from '@locadora/contract/operacao';
import { paths } from '../../../config/paths';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { Campo, CampoTextoLongo } from '../../../components/Campo';
import { Alerta, Carregando } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useAvisos } from '../../../components/Avisos';
import {
  useEnviarAvaliacao,
  useMeuContato,
  type AvaliacaoValidada,
  type DadosDaAvaliacao,
} from '../api/avaliacoes';
import { EscolhaDeEstrelas } from '../components/Estrelas';
import { formatarTelefone } from '../telefone';
import '../avaliacoes.css';

const CAMPOS = ['titulo', 'nota', 'email', 'telefone', 'observacao'] as const;

const validarComOContrato = zodResolver(avaliacaoSchema);
const OBSERVACAO_VAZIA = 'Escreva a sua observação.';

/**
 * The contract's schema, with two adjustments for the form: a cleared e-mail means "no e-mail"
 * (the contract refuses an empty one), and a missing observation is reported together with the
 * other fields (zod runs the contract's object-level check only once every field passes, which
 * would reveal that error one submit later).
 */
const resolver: Resolver<DadosDaAvaliacao, unknown, AvaliacaoValidada> = async (
  valores,
  ...resto
) => {
  const resultado = await validarComOContrato(
    { ...valores, email: valores.email?.trim() || null },
    ...resto,
  );
  const semObservacao = !String(valores.observacao ?? '').trim();
  if (Object.keys(resultado.errors).length > 0 && semObservacao && !resultado.errors.observacao)
    return {
      values: {},
      errors: { ...resultado.errors, observacao: { type: 'custom', message: OBSERVACAO_VAZIA } },
    };
  return resultado;
};

function FormularioDeAvaliacao({ email, telefone }: { email: string; telefone: string }) {
  const enviarAvaliacao = useEnviarAvaliacao();
  const avisar = useAvisos();
  const navegar = useNavigate();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DadosDaAvaliacao, unknown, AvaliacaoValidada>({
    resolver,
    defaultValues: { titulo: '', nota: undefined, email, telefone, observacao: '' },
  });

  const enviar = handleSubmit(async (dados) => {
    setErroGeral(null);
    try {
      await enviarAvaliacao.mutateAsync(dados);
      avisar('Avaliação enviada com sucesso! Obrigado pela sua opinião.');
      navegar(paths.avaliacoes.caminho);
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  return (
    <form onSubmit={enviar} noValidate className="formulario formulario-avaliacao cartao">
      {erroGeral && <Alerta tipo="erro">{erroGeral}</Alerta>}
      <Campo
        rotulo="Título"
        maxLength={120}
        erro={errors.titulo?.message}
        {...register('titulo')}
      />
      <Controller
        control={control}
        name="nota"
        render={({ field, fieldState }) => (
          <EscolhaDeEstrelas
            rotulo="Nota"
            valor={typeof field.value === 'number' ? field.value : undefined}
            aoMudar={field.onChange}
            aoSair={field.onBlur}
            erro={fieldState.error?.message}
            ref={field.ref}
          />
        )}
      />
      <div className="formulario--grade">
        <Campo
          rotulo="E-mail"
          type="email"
          autoComplete="email"
          erro={errors.email?.message}
          dica="Para a locadora responder, se precisar."
          {...register('email')}
        />
        <Campo
          rotulo="Telefone"
          type="tel"
          autoComplete="tel-national"
          placeholder="(31) 99999-0000"
          erro={errors.telefone?.message}
          {...register('telefone')}
        />
      </div>
      <CampoTextoLongo
        rotulo="Observação"
        rows={5}
        maxLength={2000}
        erro={errors.observacao?.message}
        dica="Conte como foi a retirada, o carro e a devolução."
        {...register('observacao')}
      />
      <div className="formulario__acoes">
        <button type="submit" className="botao" disabled={isSubmitting}>
          {isSubmitting ? 'Enviando…' : 'Enviar Avaliação'}
        </button>
        <Link to={paths.avaliacoes.caminho}>Ver avaliações</Link>
      </div>
    </form>
  );
}

/** /avaliacoes: send a review; the contact fields start with the account's. */
export default function PaginaNovaAvaliacao() {
  const contato = useMeuContato();
  return (
    <Pagina
      titulo="Enviar avaliação"
      descricao="Sua opinião ajuda outros clientes e a locadora a melhorar."
    >
      {contato.isPending ? (
        <Carregando />
      ) : (
        // Without the profile the form still works: the contact fields start empty.
        <FormularioDeAvaliacao
          email={contato.data?.email ?? ''}
          telefone={formatarTelefone(contato.data?.telefone)}
        />
      )}
    </Pagina>
  );
}
