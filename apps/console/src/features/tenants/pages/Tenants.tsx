import { Route, Routes } from 'react-router';
import '../../../components/records.css';
import '../tenants.css';
import { TenantList } from './TenantList';
import { TenantDetail } from './TenantDetail';

/** Tenants: the list (and a new one), and each tenant's page with its workflow overrides. */
export default function Tenants() {
  return (
    <Routes>
      <Route index element={<TenantList />} />
      <Route path=":identifier" element={<TenantDetail />} />
    </Routes>
  );
}
