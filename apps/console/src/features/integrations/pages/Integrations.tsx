import { Route, Routes } from 'react-router';
import { SectionTabs } from '../../../components/SectionTabs';
import '../integrations.css';
import { IntegrationList } from './IntegrationList';
import { Catalogue } from './Catalogue';
import { Connect } from './Connect';
import { IntegrationDetail } from './IntegrationDetail';
import { Outbox, OutboxMail } from './Outbox';

/**
 * The integrations store: the environment's integrations (`/integrations`), the catalogue to
 * connect one (`/integrations/new`, `/integrations/new/:channel/:providerId`), one integration
 * (`/integrations/:id`) and the sandbox outbox (`/integrations/outbox`), each a link.
 */
export default function Integrations() {
  return (
    <div className="page integrations">
      <header className="page-header">
        <h1>Integrations store</h1>
        <p className="muted">
          The providers this environment delivers through, in the order they are tried.
        </p>
      </header>
      <SectionTabs
        label="Integrations store"
        tabs={[
          { to: '/integrations', label: 'Integrations', end: true },
          { to: '/integrations/outbox', label: 'Sandbox outbox' },
        ]}
      />
      <Routes>
        <Route index element={<IntegrationList />} />
        <Route path="new" element={<Catalogue />} />
        <Route path="new/:channel/:providerId" element={<Connect />} />
        <Route path="outbox" element={<Outbox />} />
        <Route path="outbox/:mailId" element={<OutboxMail />} />
        <Route path=":integrationId" element={<IntegrationDetail />} />
      </Routes>
    </div>
  );
}
