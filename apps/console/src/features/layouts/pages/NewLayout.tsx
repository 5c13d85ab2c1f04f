import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { LayoutForm } from '../components/LayoutForm';
import { LayoutPreview } from '../components/LayoutPreview';
import { STARTER_HTML, type LayoutValues } from '../lib/layouts';

/** A new layout, started from a small frame with {{{body}}} in place. */
export function NewLayout() {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState(STARTER_HTML);
  const create = useMutation({
    mutationFn: (values: LayoutValues) =>
      api<{ data: { _id: string } }>('/v1/layouts', {
        method: 'POST',
        body: {
          name: values.name.trim(),
          identifier: values.identifier.trim(),
          description: values.description.trim() || undefined,
          content: values.content,
        },
      }),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: ['layouts', token] });
      void navigate(`/layouts/${data._id}`);
    },
  });
  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <p>
            <Link to="/layouts">Layouts</Link>
          </p>
          <h1>Create a layout</h1>
        </div>
      </header>
      <div className="card">
        <LayoutForm
          initial={{ name: '', identifier: '', description: '', content: STARTER_HTML }}
          submitLabel="Create"
          busy={create.isPending}
          error={create.error?.message}
          onSubmit={(values) => create.mutate(values)}
          onContentChange={setDraft}
        />
      </div>
      <LayoutPreview content={draft} name="being created" />
    </div>
  );
}
