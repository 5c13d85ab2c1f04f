import { mensagemDoErro } from '../../../lib/api';
import { Alerta } from '../../../components/Estados';
import { Pagina } from '../../../components/Pagina';
import { useEnviarNotificacaoDeTeste } from '../api/teste';

/** /notificacoes: checks the bell end to end with a notification to oneself. */
export default function PaginaNotificacoes() {
  const enviar = useEnviarNotificacaoDeTeste();
  return (
    <Pagina
      titulo="Notificações"
      descricao="Avisos das suas reservas, vistorias, manutenções, multas e avaliações."
    >
      <section className="cartao" aria-labelledby="titulo-teste">
        <h2 id="titulo-teste">Testar os avisos</h2>
        <p>Envie uma notificação para você mesmo e confira que os avisos chegam até você.</p>
        {enviar.isSuccess && <Alerta tipo="sucesso">Notificação enviada!</Alerta>}
        {enviar.isError && <Alerta tipo="erro">{mensagemDoErro(enviar.error)}</Alerta>}
        <div className="acoes">
          <button
            type="button"
            className="botao"
            onClick={() => enviar.mutate()}
            disabled={enviar.isPending}
            aria-busy={enviar.isPending}
          >
            {enviar.isPending ? 'Enviando…' : 'Enviar Notificação'}
          </button>
        </div>
      </section>
    </Pagina>
  );
}
