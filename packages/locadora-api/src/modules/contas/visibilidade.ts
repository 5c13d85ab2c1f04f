import type { ErroLocadora } from '../../erros.js';
import { ehEquipe, type UsuarioAutenticado } from './tipos.js';

/**
 * A customer's record as its owner or the staff see it: staff see every record, a customer only
 * their own. Someone else's record answers exactly as a missing one (`ausente`, a 404), so a
 * customer cannot tell which ids exist by trying them.
 */
export function visivelPara<T extends { usuarioId: number | null }>(
  solicitante: Pick<UsuarioAutenticado, 'id' | 'papel'>,
  registro: T | undefined,
  ausente: () => ErroLocadora,
): T {
  if (!registro || (!ehEquipe(solicitante) && registro.usuarioId !== solicitante.id))
    throw ausente();
  return registro;
}
