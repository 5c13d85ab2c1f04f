import { useLocation, useNavigate } from 'react-router';
import { fluxoDoPapel } from '@locadora/contract/notificacoes';
import { PopoverNotificationCenter, SinoProvider } from '@sino/react';
import '@sino/react/styles.css';
import { mensagemDoErro } from '../../../lib/api';
import { useUsuario } from '../../../lib/sessao';
import { useSessaoDoSino } from '../api/sessao';
import './campainha.css';

// Sino runs in the same server as the app (`/v1`, `/socket.io`): the page's origin reaches both.
const origem = window.location.origin;

/** Locadora's colours on the inbox (its variables, so a host theme change follows). */
const estilos = {
  variables: {
    '--sino-color-primary': 'var(--cor-primaria)',
    '--sino-font-family': 'inherit',
  },
} as const;

const semRodape = () => null;

/**
 * The bell of the top menu: the logged-in user's Sino inbox in a 420 px popover, in pt-BR.
 * A notification opens the page it is about (its link is a path inside the app).
 */
export default function Campainha() {
  const usuario = useUsuario();
  const sessao = useSessaoDoSino(usuario.id);
  const navegar = useNavigate();
  const local = useLocation();

  if (sessao.isPending) return <span className="campainha campainha--reservada" aria-hidden />;
  if (sessao.isError)
    return (
      <span className="campainha" role="status">
        <button
          type="button"
          className="campainha__indisponivel"
          disabled
          aria-label={`Notificações indisponíveis. ${mensagemDoErro(sessao.error)}`}
          title={mensagemDoErro(sessao.error)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
            />
            <path stroke="currentColor" strokeWidth="2" d="M3 3l18 18" />
          </svg>
        </button>
      </span>
    );

  const { applicationIdentifier, subscriberId, subscriberHash } = sessao.data;
  return (
    <span className="campainha">
      <SinoProvider
        backendUrl={origem}
        socketUrl={origem}
        applicationIdentifier={applicationIdentifier}
        subscriberId={subscriberId}
        subscriberHash={subscriberHash}
        i18n="pt-BR"
        styles={estilos}
      >
        {/* A new page closes the popover (it remounts); the inbox itself lives in the provider. */}
        <PopoverNotificationCenter
          key={local.pathname + local.search}
          // Locadora's own inbox: no vendor credit (its link would lead to this same app).
          footer={semRodape}
          // Staff-only workflows (tagged in fluxos.ts) stay out of a customer's preferences.
          preferenceFilter={(p) => fluxoDoPapel(usuario.papel, p.template.tags)}
          onUrlChange={(url) => {
            // Links of Locadora's workflows are paths in the app; anything else is not followed.
            if (url.startsWith('/') && !url.startsWith('//')) void navegar(url);
          }}
        />
      </SinoProvider>
    </span>
  );
}
