import type { Papel } from '@locadora/contract/dominio';

/** Who is calling: resolved from the access token on every request. */
export interface UsuarioAutenticado {
  id: number;
  nome: string;
  email: string;
  papel: Papel;
  sessaoId: string;
}

export const ehEquipe = (u: Pick<UsuarioAutenticado, 'papel'>): boolean =>
  u.papel === 'funcionario' || u.papel === 'admin';
