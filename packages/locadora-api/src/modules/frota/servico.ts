import { isForeignKeyViolation, isUniqueViolation } from '@locadora/db';
import type {
  CategoriaPedido,
  EstoquePedido,
  ModeloPedido,
  VeiculoAlteracao,
  VeiculoPedido,
} from '@locadora/contract/frota';
import { formatarPlaca } from '@locadora/contract/placa';
import { reaisParaCentavos } from '@locadora/contract/preco';
import {
  ErroLocadora,
  conflito,
  entradaInvalida,
  naoEncontrada,
  naoEncontrado,
} from '../../erros.js';
import type { Repositorios } from '../../repositorios.js';
import type {
  CategoriaRegistro,
  EstoqueRegistro,
  FiltroVeiculos,
  ModeloDetalhado,
  NovaCategoria,
  NovoEstoque,
  NovoModelo,
  VeiculoDetalhado,
} from './repositorio.js';

export interface DependenciasFrota {
  repositorios: Pick<Repositorios, 'frota' | 'emTransacao'>;
}

export const MENSAGEM_CATEGORIA_EM_USO = 'Categoria em uso: há modelos ou locações ligados a ela.';
export const MENSAGEM_MODELO_EM_USO = 'Modelo em uso: há veículos ou locações ligados a ele.';
export const MENSAGEM_VEICULO_COM_HISTORICO =
  'O veículo tem reservas, vistorias, manutenções ou infrações registradas e não pode ser ' +
  'excluído. Para tirá-lo da frota, desative-o (ativo = false).';

/**
 * Turns the database's verdict into the API's: the unique indexes and foreign keys decide
 * duplicates and dangling references, so two concurrent requests cannot both slip past a check.
 */
function traduzir(
  erro: unknown,
  casos: { duplicado?: () => ErroLocadora; referenciaInvalida?: () => ErroLocadora },
): unknown {
  if (erro instanceof ErroLocadora) return erro;
  if (casos.duplicado && isUniqueViolation(erro)) return casos.duplicado();
  if (casos.referenciaInvalida && isForeignKeyViolation(erro)) return casos.referenciaInvalida();
  return erro;
}

const paraCategoria = (d: CategoriaPedido): NovaCategoria => ({
  descricao: d.desc_categoria,
  valorDiariaCentavos: reaisParaCentavos(d.vl_categoria),
  emPromocao: d.ind_promocao,
});
const paraEstoque = (d: EstoquePedido): NovoEstoque => ({
  modelo: d.modelo_veiculo,
  marca: d.marca_veiculo,
  cor: d.cor_veiculo,
  quantidade: d.quantidade,
});
const paraModelo = (d: ModeloPedido): NovoModelo => ({
  nome: d.nome,
  marca: d.marca,
  categoriaId: d.id_categoria,
});

const categoriaDuplicada = () =>
  conflito('Já existe uma categoria com esta descrição.', 'desc_categoria');
const estoqueDuplicado = () =>
  conflito(
    'Já existe um registro de estoque para este modelo, marca e cor: altere a quantidade dele.',
    'modelo_veiculo',
  );
const modeloDuplicado = () => conflito('Já existe um modelo com este nome.', 'nome');
const categoriaInexistente = () => entradaInvalida('id_categoria', 'Categoria não encontrada.');
const modeloInexistente = () => entradaInvalida('id_modelo', 'Modelo não encontrado.');
const placaDuplicada = (placa: string) => () =>
  conflito(`Já existe um veículo com a placa ${formatarPlaca(placa)}.`, 'placa');

export function criarServicoFrota(deps: DependenciasFrota) {
  const repo = deps.repositorios.frota;

  async function modeloDetalhado(id: number): Promise<ModeloDetalhado> {
    const m = await repo.modelos.detalhado(id);
    if (!m) throw naoEncontrado('Modelo');
    return m;
  }
  async function veiculoDetalhado(id: number): Promise<VeiculoDetalhado> {
    const v = await repo.veiculos.detalhado(id);
    if (!v) throw naoEncontrado('Veículo');
    return v;
  }

  const categorias = {
    listar: (): Promise<CategoriaRegistro[]> => repo.categorias.listar(),
    async buscar(id: number): Promise<CategoriaRegistro> {
      const c = await repo.categorias.porId(id);
      if (!c) throw naoEncontrada('Categoria');
      return c;
    },
    async criar(dados: CategoriaPedido): Promise<CategoriaRegistro> {
      try {
        return await repo.categorias.inserir(paraCategoria(dados));
      } catch (erro) {
        throw traduzir(erro, { duplicado: categoriaDuplicada });
      }
    },
    /** Reservations keep the daily value of their booking: a new value applies to new ones. */
    async atualizar(id: number, dados: CategoriaPedido): Promise<CategoriaRegistro> {
      let c: CategoriaRegistro | undefined;
      try {
        c = await repo.categorias.atualizar(id, paraCategoria(dados));
      } catch (erro) {
        throw traduzir(erro, { duplicado: categoriaDuplicada });
      }
      if (!c) throw naoEncontrada('Categoria');
      return c;
    },
    async excluir(id: number): Promise<void> {
      let excluiu: boolean;
      try {
        excluiu = await repo.categorias.excluir(id);
      } catch (erro) {
        throw traduzir(erro, { referenciaInvalida: () => conflito(MENSAGEM_CATEGORIA_EM_USO) });
      }
      if (!excluiu) throw naoEncontrada('Categoria');
    },
  };

  const estoques = {
    listar: (): Promise<EstoqueRegistro[]> => repo.estoques.listar(),
    async buscar(id: number): Promise<EstoqueRegistro> {
      const e = await repo.estoques.porId(id);
      if (!e) throw naoEncontrado('Registro de estoque');
      return e;
    },
    async criar(dados: EstoquePedido): Promise<EstoqueRegistro> {
      try {
        return await repo.estoques.inserir(paraEstoque(dados));
      } catch (erro) {
        throw traduzir(erro, { duplicado: estoqueDuplicado });
      }
    },
    async atualizar(id: number, dados: EstoquePedido): Promise<EstoqueRegistro> {
      let e: EstoqueRegistro | undefined;
      try {
        e = await repo.estoques.atualizar(id, paraEstoque(dados));
      } catch (erro) {
        throw traduzir(erro, { duplicado: estoqueDuplicado });
      }
      if (!e) throw naoEncontrado('Registro de estoque');
      return e;
    },
    /** Deletes the row with this id and only it (the earlier system's button did nothing). */
    async excluir(id: number): Promise<void> {
      if (!(await repo.estoques.excluir(id))) throw naoEncontrado('Registro de estoque');
    },
  };

  const modelos = {
    listar: (filtro: { categoriaId?: number | undefined }): Promise<ModeloDetalhado[]> =>
      repo.modelos.listar(filtro),
    buscar: modeloDetalhado,
    async criar(dados: ModeloPedido): Promise<ModeloDetalhado> {
      let id: number;
      try {
        ({ id } = await repo.modelos.inserir(paraModelo(dados)));
      } catch (erro) {
        throw traduzir(erro, {
          duplicado: modeloDuplicado,
          referenciaInvalida: categoriaInexistente,
        });
      }
      return modeloDetalhado(id);
    },
    /**
     * A model with open reservations keeps its category: those reservations were priced and
     * counted against the availability of the category they were booked in.
     */
    async atualizar(id: number, dados: ModeloPedido): Promise<ModeloDetalhado> {
      try {
        await deps.repositorios.emTransacao(async (tx) => {
          const r = tx.frota;
          // Locked until commit: a booking of this model waits, so the check below stays true.
          const atual = await r.modelos.porIdParaAlterar(id);
          if (!atual) throw naoEncontrado('Modelo');
          if (
            atual.categoriaId !== dados.id_categoria &&
            (await r.modelos.temLocacaoEmAberto(id))
          ) {
            throw conflito(
              'Este modelo tem reservas em aberto: a categoria só pode mudar depois que elas forem concluídas ou canceladas.',
              'id_categoria',
            );
          }
          await r.modelos.atualizar(id, paraModelo(dados));
        });
      } catch (erro) {
        throw traduzir(erro, {
          duplicado: modeloDuplicado,
          referenciaInvalida: categoriaInexistente,
        });
      }
      return modeloDetalhado(id);
    },
    async excluir(id: number): Promise<void> {
      let excluiu: boolean;
      try {
        excluiu = await repo.modelos.excluir(id);
      } catch (erro) {
        throw traduzir(erro, { referenciaInvalida: () => conflito(MENSAGEM_MODELO_EM_USO) });
      }
      if (!excluiu) throw naoEncontrado('Modelo');
    },
  };

  const veiculos = {
    listar: (filtro: FiltroVeiculos): Promise<VeiculoDetalhado[]> => repo.veiculos.listar(filtro),
    buscar: veiculoDetalhado,
    async criar(dados: VeiculoPedido): Promise<VeiculoDetalhado> {
      let id: number;
      try {
        ({ id } = await repo.veiculos.inserir({
          placa: dados.placa,
          modeloId: dados.id_modelo,
          cor: dados.cor,
          quilometragem: dados.quilometragem,
          ativo: dados.ativo,
        }));
      } catch (erro) {
        throw traduzir(erro, {
          duplicado: placaDuplicada(dados.placa),
          referenciaInvalida: modeloInexistente,
        });
      }
      return veiculoDetalhado(id);
    },
    /**
     * Absent `quilometragem` and `ativo` keep their value. A vehicle assigned to an open
     * reservation keeps its model: the contract was made for that model's category.
     */
    async atualizar(id: number, dados: VeiculoAlteracao): Promise<VeiculoDetalhado> {
      try {
        await deps.repositorios.emTransacao(async (tx) => {
          const r = tx.frota;
          // Locked until commit: assigning this vehicle to a contract waits for the change.
          const atual = await r.veiculos.porIdParaAlterar(id);
          if (!atual) throw naoEncontrado('Veículo');
          if (atual.modeloId !== dados.id_modelo && (await r.veiculos.temLocacaoEmAberto(id))) {
            throw conflito(
              'O veículo está ligado a uma locação em aberto: o modelo só pode mudar depois da devolução ou do cancelamento.',
              'id_modelo',
            );
          }
          await r.veiculos.atualizar(id, {
            placa: dados.placa,
            modeloId: dados.id_modelo,
            cor: dados.cor,
            ...(dados.quilometragem !== undefined && { quilometragem: dados.quilometragem }),
            ...(dados.ativo !== undefined && { ativo: dados.ativo }),
          });
        });
      } catch (erro) {
        throw traduzir(erro, {
          duplicado: placaDuplicada(dados.placa),
          referenciaInvalida: modeloInexistente,
        });
      }
      return veiculoDetalhado(id);
    },
    /** Only a vehicle without any history can go; the others are deactivated instead. */
    async excluir(id: number): Promise<void> {
      let excluiu: boolean;
      try {
        excluiu = await repo.veiculos.excluir(id);
      } catch (erro) {
        throw traduzir(erro, {
          referenciaInvalida: () => conflito(MENSAGEM_VEICULO_COM_HISTORICO),
        });
      }
      if (!excluiu) throw naoEncontrado('Veículo');
    },
  };

  return {
    categorias,
    estoques,
    modelos,
    veiculos,
    locais: {
      listar: () => repo.locais.listar(),
      async buscar(id: number) {
        const l = await repo.locais.porId(id);
        if (!l) throw naoEncontrado('Local de retirada');
        return l;
      },
    },
    adicionais: {
      listar: () => repo.adicionais.listar(),
    },
  };
}
export type ServicoFrota = ReturnType<typeof criarServicoFrota>;
