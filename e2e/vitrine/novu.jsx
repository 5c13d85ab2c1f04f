// A test-only page for the side-by-side screenshot of e2e/campainha.spec.ts: Novu's own inbox
// widget (@novu/notification-center 0.24.2, React 18) pointed at Sino, with the same query
// string as main.tsx. Novu is installed only under bench/bundle-inbox/deps (npm ci --prefix
// bench/bundle-inbox/deps): the spec builds this page with aliases into that folder, and skips
// the comparison when it is absent. Not typechecked (its types live in that optional folder).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  NotificationBell,
  NovuProvider,
  PopoverNotificationCenter,
} from '@novu/notification-center';

const consulta = new URLSearchParams(window.location.search);
const parametro = (nome, padrao = '') => consulta.get(nome) ?? padrao;
const lang = parametro('lang', 'en');
document.documentElement.lang = lang;
document.documentElement.dir = parametro('dir', 'ltr');

createRoot(document.getElementById('raiz')).render(
  <StrictMode>
    <header className="vitrine__topo">
      <h1>Novu 0.24.2</h1>
      <NovuProvider
        backendUrl={parametro('backendUrl', window.location.origin)}
        socketUrl={parametro('socketUrl', window.location.origin)}
        applicationIdentifier={parametro('applicationIdentifier')}
        subscriberId={parametro('subscriberId')}
        subscriberHash={parametro('subscriberHash')}
        i18n={parametro('novuLang', lang)}
      >
        <PopoverNotificationCenter colorScheme="light">
          {({ unseenCount }) => <NotificationBell unseenCount={unseenCount} />}
        </PopoverNotificationCenter>
      </NovuProvider>
    </header>
  </StrictMode>,
);
