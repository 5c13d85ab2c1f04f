export const PAPEIS = ['cliente', 'funcionario', 'admin'] as const;
export type Papel = (typeof PAPEIS)[number];
/** Staff roles: they see and manage every record. */
export const PAPEIS_EQUIPE: readonly Papel[] = ['funcionario', 'admin'];

export const STATUS_LOCACAO = ['reservada', 'retirada', 'devolvida', 'cancelada'] as const;
export type StatusLocacao = (typeof STATUS_LOCACAO)[number];
/** Statuses that hold a vehicle of the category for the period. */
export const STATUS_QUE_OCUPAM: readonly StatusLocacao[] = ['reservada', 'retirada'];

export const TIPOS_VISTORIA = { 0: 'Devolução do veículo', 1: 'Saída do veículo' } as const;

export const TIPOS_MANUTENCAO = {
  0: 'Revisão de garantia',
  1: 'Sinistro',
  2: 'Preventiva',
  3: 'Reparo',
  4: 'Parada operacional / reserva técnica',
  5: 'Limpeza',
} as const;

export const OBSERVACAO_PADRAO_HISTORICO = 'Nenhuma observação disponível';

/** Time zone of the company: pickup and return times are local to Belo Horizonte. */
export const FUSO_HORARIO = 'America/Sao_Paulo';
