import type { StatusLocacao } from '@locadora/contract/dominio';

export const ROTULOS_DE_STATUS: Record<StatusLocacao, string> = {
  reservada: 'Reservada',
  retirada: 'Retirada',
  devolvida: 'Devolvida',
  cancelada: 'Cancelada',
};

/** Why a reservation can no longer be edited; only 'reservada' ones can. */
export const MOTIVO_SOMENTE_LEITURA: Record<Exclude<StatusLocacao, 'reservada'>, string> = {
  retirada: 'O veículo já foi retirado: esta reserva não pode mais ser alterada nem excluída.',
  devolvida: 'O veículo já foi devolvido: esta reserva não pode mais ser alterada nem excluída.',
  cancelada: 'Esta reserva foi cancelada: ela fica guardada apenas para consulta.',
};
