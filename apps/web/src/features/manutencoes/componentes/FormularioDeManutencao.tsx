import { useState, type FocusEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { TIPOS_MANUTENCAO } from '@locadora/contract/dominio';
import { manutencaoSchema, type ManutencaoPedido } from '@locadora/contract/operacao';
import { mensagemDoErro } from '../../../lib/api';
import { formatarData, hojeLocal } from '../../../lib/formatos';
import { aplicarErrosDoServidor } from '../../../lib/formularios';
import { Campo, CampoSelecao, CampoTextoLongo } from '../../../components/Campo';
import { Alerta } from '../../../components/Estados';
import { useAvisos } from '../../../components/Avisos';
import {
  useRegistrarManutencao,
  useVistoriasDoVeiculo,
  type Manutencao,
  type Vistoria,
} from '../api/manutencoes';
import type { Veiculo } from '../api/veiculos';
import { SeletorDeVeiculo } from './SeletorDeVeiculo';
import {
  lerDecimal,
  lerReais,
  ouIndefinido,
  reescreverReais,
  resolverDoContrato,
} from '../formulario';

interface Formulario {
  id_veiculo: string;
  tipo: string;
  id_vistoria: string;
  data_inicio: string;
  previsao_termino: string;
  descricao: string;
  hora_oficina: string;
  valor_nf: string;
}

const CAMPOS = [
  'id_veiculo',
  'tipo',
  'id_vistoria',
  'data_inicio',
  'previsao_termino',
  'descricao',
  'hora_oficina',
  'valor_nf',
] as const;

const paraPedido = (f: Formulario) => ({
  id_veiculo: ouIndefinido(f.id_veiculo),
  tipo: ouIndefinido(f.tipo),
  id_vistoria: ouIndefinido(f.id_vistoria),
  data_inicio: ouIndefinido(f.data_inicio),
  previsao_termino: ouIndefinido(f.previsao_termino),
  descricao: f.descricao,
  hora_oficina: lerDecimal(f.hora_oficina),
  // '1.234,56' is sent as 1234.56.
  valor_nf: lerReais(f.valor_nf),
});

const resolver = resolverDoContrato(manutencaoSchema, paraPedido, {
  id_veiculo: 'Escolha o veículo.',
  tipo: 'Escolha o tipo da manutenção.',
  data_inicio: 'Informe a data de início.',
});

const rotuloDaVistoria = (v: Vistoria) =>
  `Nº ${v.id_vistoria} · ${formatarData(v.data)} · ${v.tipo_descricao}` +
  (v.id_manutencao !== null ? ` · já tem a ordem nº ${v.id_manutencao}` : '');

const valoresIniciais = (veiculo: string, vistoria: string): Formulario => ({
  id_veiculo: veiculo,
  tipo: '',
  id_vistoria: vistoria,
  data_inicio: hojeLocal(),
  previsao_termino: '',
  descricao: '',
  hora_oficina: '',
  valor_nf: '',
});

/** Opens a maintenance order (Cadastrar Manutenção). */
export function FormularioDeManutencao({
  veiculos,
  veiculoInicial,
  vistoriaInicial,
  aoRegistrar,
}: {
  veiculos: readonly Veiculo[];
  veiculoInicial: string;
  vistoriaInicial: string;
  aoRegistrar: (m: Manutencao) => void;
}) {
  const registrar = useRegistrarManutencao();
  const avisar = useAvisos();
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const veiculoValido = veiculos.some((v) => String(v.id_veiculo) === veiculoInicial)
    ? veiculoInicial
    : '';
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    reset,
    formState: { errors },
  } = useForm<Formulario, unknown, ManutencaoPedido>({
    resolver,
    defaultValues: valoresIniciais(veiculoValido, veiculoValido ? vistoriaInicial : ''),
  });
  const veiculoId = Number(useWatch({ control, name: 'id_veiculo' })) || null;
  const vistorias = useVistoriasDoVeiculo(veiculoId);

  const enviar = handleSubmit(async (pedido) => {
    setErroGeral(null);
    try {
      const criada = await registrar.mutateAsync(pedido);
      avisar('Manutenção Inserida com Sucesso.');
      reset(valoresIniciais('', ''));
      aoRegistrar(criada);
    } catch (erro) {
      setErroGeral(aplicarErrosDoServidor(erro, setError, CAMPOS));
    }
  });

  return (
    <form
      onSubmit={enviar}
      noValidate
      className="cartao formulario formulario--grade"
      aria-labelledby="manutencao-form-titulo"
    >
      <h2 id="manutencao-form-titulo" className="manutencoes__largo">
        Nova ordem de manutenção
      </h2>
      {erroGeral && (
        <div className="formulario__acoes">
          <Alerta tipo="erro">{erroGeral}</Alerta>
        </div>
      )}
      <div className="manutencoes__duplo">
        <SeletorDeVeiculo
          rotulo="Veículo"
          veiculos={veiculos}
          erro={errors.id_veiculo?.message}
          {...register('id_veiculo', {
            // An inspection of the previous vehicle cannot be linked to this one.
            onChange: () => setValue('id_vistoria', ''),
          })}
        />
      </div>
      <div className="manutencoes__duplo">
        <Controller
          control={control}
          name="id_vistoria"
          render={({ field }) => (
            <CampoSelecao
              {...field}
              rotulo="Vistoria de origem (opcional)"
              erro={errors.id_vistoria?.message}
              disabled={veiculoId === null || vistorias.isPending}
              dica={
                veiculoId === null
                  ? 'Escolha o veículo para ver as vistorias dele.'
                  : vistorias.isError
                    ? `Não foi possível carregar as vistorias: ${mensagemDoErro(vistorias.error)}`
                    : vistorias.data?.length === 0
                      ? 'Este veículo não tem vistorias.'
                      : 'As 20 vistorias mais recentes do veículo.'
              }
            >
              <option value="">
                {veiculoId !== null && vistorias.isPending ? 'Carregando vistorias…' : 'Nenhuma'}
              </option>
              {/* An inspection asked for in the address stays shown (and sent) as it is, until
                the vehicle's list has it, or when it is not among the latest 20. */}
              {field.value &&
                !vistorias.data?.some((v) => String(v.id_vistoria) === field.value) && (
                  <option value={field.value}>Vistoria nº {field.value}</option>
                )}
              {vistorias.data?.map((v) => (
                <option key={v.id_vistoria} value={String(v.id_vistoria)}>
                  {rotuloDaVistoria(v)}
                </option>
              ))}
            </CampoSelecao>
          )}
        />
      </div>
      <CampoSelecao rotulo="Tipo" erro={errors.tipo?.message} {...register('tipo')}>
        <option value="">Selecione o tipo</option>
        {Object.entries(TIPOS_MANUTENCAO).map(([valor, rotulo]) => (
          <option key={valor} value={valor}>
            {rotulo}
          </option>
        ))}
      </CampoSelecao>
      <Campo
        rotulo="Início"
        type="date"
        erro={errors.data_inicio?.message}
        {...register('data_inicio')}
      />
      <Campo
        rotulo="Previsão de término (opcional)"
        type="date"
        dica="Sem previsão, o veículo só volta à frota quando a ordem for encerrada."
        erro={errors.previsao_termino?.message}
        {...register('previsao_termino')}
      />
      <Campo
        rotulo="Horas de oficina (opcional)"
        inputMode="decimal"
        placeholder="Ex.: 3,5"
        erro={errors.hora_oficina?.message}
        {...register('hora_oficina')}
      />
      <Campo
        rotulo="Valor da nota fiscal, em R$ (opcional)"
        inputMode="decimal"
        placeholder="Ex.: 1.234,56"
        erro={errors.valor_nf?.message}
        {...register('valor_nf', {
          onBlur: (e: FocusEvent<HTMLInputElement>) =>
            setValue('valor_nf', reescreverReais(e.target.value)),
        })}
      />
      <div className="manutencoes__largo">
        <CampoTextoLongo
          rotulo="Descrição"
          rows={3}
          erro={errors.descricao?.message}
          {...register('descricao')}
        />
      </div>
      <div className="formulario__acoes">
        <button type="submit" className="botao" disabled={registrar.isPending}>
          {registrar.isPending ? 'Cadastrando…' : 'Cadastrar Manutenção'}
        </button>
      </div>
    </form>
  );
}
