import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { mensagemDoErro } from '../../../lib/api';
import { Alerta } from '../../../components/Estados';
import { useVerificarEmail } from '../api/verificarEmail';

/**
 * Opened from the confirmation e-mail (`/verificar-email?token=...`). The address is confirmed
 * only when the person presses the button: a mail scanner that opens links does not use the
 * token up, and the link works once.
 */
export default function PaginaVerificarEmail() {
  const [parametros] = useSearchParams();
  const token = parametros.get('token') ?? '';
  const verificar = useVerificarEmail();

  useEffect(() => {
    document.title = 'Confirmar e-mail · Locadora';
  }, []);

  return (
    <div className="entrada">
      <main className="entrada__cartao" id="conteudo">
        <h1>Confirmar e-mail</h1>
        {!token && (
          <Alerta tipo="erro">
            Este endereço não traz um link de confirmação. Abra o link do e-mail que enviamos ou
            peça um novo em Minha conta.
          </Alerta>
        )}
        {token && verificar.isSuccess && (
          <>
            <Alerta tipo="sucesso">
              Seu e-mail foi confirmado. A partir de agora você recebe por e-mail os avisos das suas
              reservas e multas.
            </Alerta>
            <p>
              <Link to={paths.login.caminho}>Ir para a Locadora</Link>
            </p>
          </>
        )}
        {token && !verificar.isSuccess && (
          <>
            <p className="entrada__subtitulo">
              Confirme que este endereço é seu para receber por e-mail os avisos das suas reservas e
              multas.
            </p>
            {verificar.isError && <Alerta tipo="erro">{mensagemDoErro(verificar.error)}</Alerta>}
            <button
              type="button"
              className="botao"
              disabled={verificar.isPending}
              onClick={() => verificar.mutate(token)}
            >
              {verificar.isPending ? 'Confirmando…' : 'Confirmar meu e-mail'}
            </button>
            <p>
              <Link to={paths.login.caminho}>Voltar para a entrada</Link>
            </p>
          </>
        )}
      </main>
    </div>
  );
}
