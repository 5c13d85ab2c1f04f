// A test-only page for the browser tests (e2e/campainha.spec.ts): Sino's inbox as any host
// embeds it, in a language Locadora does not have. Built by the spec with Vite and served to
// the page through Playwright's routing, on the e2e server's origin; nothing of the product
// serves it. Its parameters come from the query string:
//   applicationIdentifier, subscriberId, subscriberHash: a session (GET /api/me/notificacoes);
//   lang: the widget's language (default 'en'); dir: the host page's direction (default 'ltr');
//   theme: 'dark' for the widget's dark scheme (default light);
//   bell: 'left', 'centre' or 'right' puts the bell there, alone in the top bar, whatever the
//   direction (e2e/sino-posicao.spec.ts); by default it sits at the bar's end, after the title;
//   backendUrl, socketUrl: Sino (default: this origin).
// Checked by this folder's own tsconfig.json (JSX, the DOM), part of `npm run typecheck`.
import { StrictMode, version } from 'react';
import { createRoot } from 'react-dom/client';
import { PopoverNotificationCenter, SinoProvider } from '@sino/react';
import '@sino/react/styles.css';

const consulta = new URLSearchParams(window.location.search);
const parametro = (nome: string, padrao = '') => consulta.get(nome) ?? padrao;
const lang = parametro('lang', 'en');
document.documentElement.lang = lang;
document.documentElement.dir = parametro('dir', 'ltr');
document.documentElement.dataset.tema = parametro('theme', 'light');
// Which React the page was built with (19 from the workspace, or 18 for the comparison).
document.documentElement.dataset.react = version;

const lado = parametro('bell');
const titulo = <h1>Vitrine</h1>;

const raiz = document.getElementById('raiz');
if (!raiz) throw new Error('vitrine: #raiz not found');
createRoot(raiz).render(
  <StrictMode>
    <header className="vitrine__topo" data-sino={lado || undefined}>
      {!lado && titulo}
      <SinoProvider
        backendUrl={parametro('backendUrl', window.location.origin)}
        socketUrl={parametro('socketUrl', window.location.origin)}
        applicationIdentifier={parametro('applicationIdentifier')}
        subscriberId={parametro('subscriberId')}
        subscriberHash={parametro('subscriberHash')}
        i18n={lang}
        styles={{ colorScheme: parametro('theme') === 'dark' ? 'dark' : 'light' }}
      >
        <PopoverNotificationCenter />
      </SinoProvider>
    </header>
    {lado && <main className="vitrine__pagina">{titulo}</main>}
  </StrictMode>,
);
