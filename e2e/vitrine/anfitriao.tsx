// A test-only host page without a Content Security Policy (e2e/conteudo-do-sino.spec.ts):
// Sino's inbox beside the host's own button, which counts its clicks. Built by the spec with
// Vite and served by a plain HTTP server of the spec, apart from the product. Its parameters
// come from the query string:
//   backendUrl, applicationIdentifier, subscriberId, subscriberHash: the Sino and session;
//   allowedImageOrigins: comma-separated origins the inbox may load pictures from.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { NotificationCenter, SinoProvider } from '@sino/react';
import '@sino/react/styles.css';

const consulta = new URLSearchParams(window.location.search);
const parametro = (nome: string) => consulta.get(nome) ?? '';
const origens = parametro('allowedImageOrigins').split(',').filter(Boolean);

function Pagina() {
  const [cliques, setCliques] = useState(0);
  return (
    <div className="anfitriao">
      <main className="anfitriao__pagina">
        <h1>Página do anfitrião</h1>
        <button type="button" onClick={() => setCliques((n) => n + 1)}>
          Botão do anfitrião
        </button>
        <output aria-label="Cliques no botão do anfitrião">{cliques}</output>
      </main>
      <aside aria-label="Caixa de notificações">
        <SinoProvider
          backendUrl={parametro('backendUrl')}
          applicationIdentifier={parametro('applicationIdentifier')}
          subscriberId={parametro('subscriberId')}
          subscriberHash={parametro('subscriberHash')}
          allowedImageOrigins={origens}
        >
          <NotificationCenter />
        </SinoProvider>
      </aside>
    </div>
  );
}

const raiz = document.getElementById('raiz');
if (!raiz) throw new Error('anfitrião: #raiz not found');
createRoot(raiz).render(
  <StrictMode>
    <Pagina />
  </StrictMode>,
);
