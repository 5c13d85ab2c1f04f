import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ErroDaApi } from './api';

/**
 * Puts the server's field errors (400/409 `campos`) under the matching inputs. Answers the
 * message still to show above the form: null when every error found its field.
 */
export function aplicarErrosDoServidor<T extends FieldValues>(
  erro: unknown,
  setError: UseFormSetError<T>,
  campos: readonly string[],
): string | null {
  if (!(erro instanceof ErroDaApi)) return 'Algo deu errado. Tente novamente.';
  const conhecidos = erro.campos.filter((c) => campos.includes(c.campo));
  conhecidos.forEach((c, i) =>
    setError(c.campo as Path<T>, { type: 'server', message: c.mensagem }, { shouldFocus: i === 0 }),
  );
  return conhecidos.length > 0 && conhecidos.length === erro.campos.length ? null : erro.message;
}
