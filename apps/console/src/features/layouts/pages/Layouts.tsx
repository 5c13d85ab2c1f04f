import { Route, Routes } from 'react-router';
import '../../../components/records.css';
import { LayoutList } from './LayoutList';
import { NewLayout } from './NewLayout';
import { LayoutDetail } from './LayoutDetail';

/** Layouts: the e-mail frames steps are placed in; the list, a new one, and each one's page. */
export default function Layouts() {
  return (
    <Routes>
      <Route index element={<LayoutList />} />
      <Route path="new" element={<NewLayout />} />
      <Route path=":layoutId" element={<LayoutDetail />} />
    </Routes>
  );
}
