import { Route, Routes } from 'react-router';
import { WorkflowList } from '../components/WorkflowList';
import { WorkflowEditor } from '../components/WorkflowEditor';
import '../workflows.css';

/** The workflows section: the list (`/workflows`), a new one (`/workflows/new`) and one (`/:id`). */
export default function Workflows() {
  return (
    <Routes>
      <Route index element={<WorkflowList />} />
      <Route path="new" element={<WorkflowEditor />} />
      <Route path=":workflowId" element={<WorkflowEditor />} />
    </Routes>
  );
}
