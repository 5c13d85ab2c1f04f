import { Navigate, Route, Routes } from 'react-router';
import { SectionTabs } from '../../../components/SectionTabs';
import '../settings.css';
import { Members } from './Members';
import { ApiKeys } from './ApiKeys';
import { Branding } from './Branding';
import { Environments } from './Environments';
import { AuditLog } from './AuditLog';
import { NotFound } from '../components/NotFound';

const tabs = [
  { path: 'members', label: 'Members', Page: Members },
  { path: 'api-keys', label: 'API keys', Page: ApiKeys },
  { path: 'branding', label: 'Branding', Page: Branding },
  { path: 'environments', label: 'Environments', Page: Environments },
  { path: 'audit-log', label: 'Audit log', Page: AuditLog },
] as const;

/** Settings: the organisation's members, keys, branding, environments and audit log, each a link of its own. */
export default function Settings() {
  return (
    <div className="page settings">
      <header className="page-header">
        <h1>Settings</h1>
        <p className="muted">Your organization, its people and the current environment's keys.</p>
      </header>
      <SectionTabs
        label="Settings"
        tabs={tabs.map((tab) => ({ to: `/settings/${tab.path}`, label: tab.label }))}
      />
      <Routes>
        <Route index element={<Navigate to="members" replace />} />
        {tabs.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<NotFound />} />
      </Routes>
    </div>
  );
}
