import { DeleteRecordDialog } from '../../../components/DeleteRecordDialog';
import { RecordHeader } from '../../../components/RecordHeader';
import { QueryView } from '../../../components/QueryView';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { FormAlert } from '../../../components/FormAlert';
import { LayoutForm } from '../components/LayoutForm';
import { LayoutPreview } from '../components/LayoutPreview';
import { LayoutVariables } from '../components/LayoutVariables';
import { layoutPath, useLayout, type Layout, type LayoutValues } from '../lib/layouts';

/**
 * A layout: its fields and HTML, its variables' defaults, the server's preview of the HTML as
 * typed, default, deletion.
 */
export function LayoutDetail() {
  const id = useParams().layoutId!;
  const layout = useLayout(id);

  return (
    <div className="page records">
      <RecordHeader
        back={{ to: '/layouts', label: 'Layouts' }}
        recordKey={id}
        title={
          <>
            {layout.data?.name ?? 'Layout'}
            {layout.data?.isDefault && <span className="tag"> Default</span>}
          </>
        }
      ></RecordHeader>
      <QueryView
        query={layout}
        loading="Loading the layout…"
        notFound={
          <p className="records-empty">
            This layout is not in this environment. <Link to="/layouts">See the layouts</Link>
          </p>
        }
      >
        {(data) => <Loaded layout={data} />}
      </QueryView>
    </div>
  );
}

function Loaded({ layout }: { layout: Layout }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [draft, setDraft] = useState(layout.content);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['layout', token, layout._id] });
    void queryClient.invalidateQueries({ queryKey: ['layouts', token] });
  };
  const save = useMutation({
    mutationFn: (values: LayoutValues) =>
      api(layoutPath(layout._id), {
        method: 'PATCH',
        body: {
          name: values.name.trim(),
          identifier: values.identifier.trim(),
          description: values.description.trim() || null,
          content: values.content,
        },
      }),
    onSuccess: () => {
      setNotice('The layout was saved.');
      refresh();
    },
  });
  const makeDefault = useMutation({
    mutationFn: () => api(`${layoutPath(layout._id)}/default`, { method: 'POST' }),
    onSuccess: refresh,
  });
  return (
    <>
      <section className="card" aria-labelledby="layout-actions-title">
        <h2 id="layout-actions-title" className="visually-hidden">
          Actions
        </h2>
        <div className="records-actions">
          {layout.isDefault ? (
            <p className="muted">E-mail steps that name no layout are sent in this one.</p>
          ) : (
            <button
              type="button"
              className="button button-secondary"
              disabled={makeDefault.isPending}
              onClick={() => makeDefault.mutate()}
            >
              {makeDefault.isPending ? 'Setting…' : 'Make it the default'}
            </button>
          )}
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setDeleting(true)}
          >
            Delete the layout
          </button>
        </div>
        <FormAlert message={makeDefault.error?.message} />
      </section>
      <section className="card" aria-labelledby="layout-edit-title">
        <h2 id="layout-edit-title">Layout</h2>
        <LayoutForm
          initial={{
            name: layout.name,
            identifier: layout.identifier,
            description: layout.description ?? '',
            content: layout.content,
          }}
          submitLabel="Save the layout"
          busy={save.isPending}
          error={save.error?.message}
          notice={notice}
          onSubmit={(values) => {
            setNotice(null);
            save.mutate(values);
          }}
          onContentChange={setDraft}
        />
      </section>
      <LayoutVariables layout={layout} onSaved={refresh} />
      <LayoutPreview
        layoutId={layout._id}
        version={layout.updatedAt}
        content={draft}
        name={layout.name}
      />
      {deleting && <DeleteLayout layout={layout} onClose={() => setDeleting(false)} />}
    </>
  );
}

function DeleteLayout({ layout, onClose }: { layout: Layout; onClose: () => void }) {
  return (
    <DeleteRecordDialog
      name={layout.name}
      apiPath={layoutPath(layout._id)}
      recordKey={['layout', layout._id]}
      listKey="layouts"
      listPath="/layouts"
      onClose={onClose}
    >
      <p>
        The layout <code>{layout.identifier}</code> goes. The default layout and one an e-mail step
        uses cannot be deleted.
      </p>
    </DeleteRecordDialog>
  );
}
