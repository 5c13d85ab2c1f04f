import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { z } from '../../../lib/forms';
import { useSignedIn } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert } from '../../../components/FormAlert';
import { FindRecord } from '../../../components/FindRecord';
import { Pager } from '../../../components/Pager';
import { ErrorState, Loading } from '../../../components/States';
import { PAGE_SIZE, topicKey, topicName, topicPath, useTopics } from '../lib/topics';

/** The environment's topics: a trigger to a topic reaches each of its subscribers. */
export function TopicList() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page')) || 0);
  const topics = useTopics(page);
  const [creating, setCreating] = useState(false);

  return (
    <div className="page records">
      <header className="records-header">
        <div>
          <h1>Topics</h1>
          <p className="muted">
            Groups of subscribers: a workflow triggered to a topic notifies each of them.
          </p>
        </div>
        {!creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            Create a topic
          </button>
        )}
      </header>
      {creating && <CreateTopic onClose={() => setCreating(false)} />}
      <div className="card">
        <FindRecord
          label="Find by topic key"
          pathOf={(id) => `/topics/${encodeURIComponent(id)}`}
        />
        {topics.isPending ? (
          <Loading label="Loading the topics…" />
        ) : topics.isError ? (
          <ErrorState message={topics.error.message} retry={() => void topics.refetch()} />
        ) : topics.data.data.length === 0 ? (
          <p className="records-empty">
            {page === 0
              ? 'No topic yet: create one, then add subscribers to it.'
              : 'This page is empty.'}
          </p>
        ) : (
          <>
            <table className="records-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Subscribers</th>
                </tr>
              </thead>
              <tbody>
                {topics.data.data.map((topic) => (
                  <tr key={topic._id}>
                    <th scope="row">
                      <Link to={`/topics/${encodeURIComponent(topic.key)}`}>{topic.name}</Link>
                    </th>
                    <td data-label="Key">
                      <code>{topic.key}</code>
                    </td>
                    <td data-label="Subscribers">{topic.subscribers.length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              page={page}
              hasMore={(page + 1) * PAGE_SIZE < topics.data.totalCount}
              label="Topic pages"
              onPage={(next) => setParams(next === 0 ? {} : { page: String(next) })}
            />
          </>
        )}
      </div>
    </div>
  );
}

const createSchema = z.object({ name: topicName, key: topicKey });
type CreateValues = z.infer<typeof createSchema>;

function CreateTopic({ onClose }: { onClose: () => void }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<CreateValues>({
    resolver: zodResolver(createSchema),
    defaultValues: { name: '', key: '' },
  });
  const create = useMutation({
    mutationFn: (values: CreateValues) =>
      api('/v1/topics', {
        method: 'POST',
        body: { key: values.key.trim(), name: values.name.trim() },
      }),
    onSuccess: (_answer, values) => {
      void queryClient.invalidateQueries({ queryKey: ['topics', token] });
      void navigate(topicPath(values.key.trim()).replace('/v1', ''));
    },
  });
  return (
    <section className="card" aria-labelledby="new-topic-title">
      <h2 id="new-topic-title">New topic</h2>
      <form
        className="records-form"
        noValidate
        onSubmit={form.handleSubmit((values) => create.mutate(values))}
      >
        <Field
          label="Name"
          autoComplete="off"
          autoFocus
          error={form.formState.errors.name}
          {...form.register('name')}
        />
        <Field
          label="Key"
          hint='What triggers name it by: to: [{ type: "Topic", topicKey }]. It cannot change.'
          autoComplete="off"
          error={form.formState.errors.key}
          {...form.register('key')}
        />
        <FormAlert message={create.error?.message} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create'}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
