import { DeleteRecordDialog } from '../../../components/DeleteRecordDialog';
import { RecordHeader } from '../../../components/RecordHeader';
import { QueryView } from '../../../components/QueryView';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { z } from '../../../lib/forms';
import { useSignedIn } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { TextAreaField } from '../../../components/TextAreaField';
import { idsOf, topicName, topicPath, useTopic, type Topic } from '../lib/topics';

/** A topic: its name, its subscribers (added by ID, removed), and its deletion. */
export function TopicDetail() {
  const key = useParams().topicKey!;
  const topic = useTopic(key);

  return (
    <div className="page records">
      <RecordHeader
        back={{ to: '/topics', label: 'Topics' }}
        recordKey={key}
        title={topic.data?.name ?? key}
      >
        <p className="muted">
          Key <code>{key}</code>
        </p>
      </RecordHeader>
      <QueryView
        query={topic}
        loading="Loading the topic…"
        notFound={
          <p className="records-empty">
            No topic has the key {key} in this environment. <Link to="/topics">See the topics</Link>
          </p>
        }
      >
        {(data) => <Loaded topic={data} />}
      </QueryView>
    </div>
  );
}

const renameSchema = z.object({ name: topicName });
const addSchema = z.object({
  ids: z.string().check(
    z.refine((text) => idsOf(text).length > 0, { error: 'Enter at least one subscriber ID' }),
    z.refine((text) => idsOf(text).every((id) => id.length <= 200), {
      error: 'A subscriber ID has at most 200 characters',
    }),
  ),
});

function Loaded({ topic }: { topic: Topic }) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const [renamed, setRenamed] = useState<string | null>(null);
  const [added, setAdded] = useState<{ succeeded: string[]; notFound: string[] } | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['topic', token, topic.key] });
    void queryClient.invalidateQueries({ queryKey: ['topics', token] });
  };

  const renameForm = useForm<{ name: string }>({
    resolver: zodResolver(renameSchema),
    defaultValues: { name: topic.name },
  });
  const rename = useMutation({
    mutationFn: (name: string) =>
      api(topicPath(topic.key), { method: 'PATCH', body: { name: name.trim() } }),
    onSuccess: () => {
      setRenamed('The topic was renamed.');
      refresh();
    },
  });

  const addForm = useForm<{ ids: string }>({
    resolver: zodResolver(addSchema),
    defaultValues: { ids: '' },
  });
  const add = useMutation({
    mutationFn: (ids: string[]) =>
      api<{ data: { succeeded: string[]; failed?: { notFound: string[] } } }>(
        `${topicPath(topic.key)}/subscribers`,
        { method: 'POST', body: { subscribers: ids } },
      ),
    onSuccess: ({ data }) => {
      setAdded({ succeeded: data.succeeded, notFound: data.failed?.notFound ?? [] });
      // The IDs no subscriber has stay in the box, to be corrected.
      addForm.reset({ ids: (data.failed?.notFound ?? []).join('\n') });
      refresh();
    },
  });

  const remove = useMutation({
    mutationFn: (id: string) =>
      api(`${topicPath(topic.key)}/subscribers/removal`, {
        method: 'POST',
        body: { subscribers: [id] },
      }),
    onSuccess: refresh,
  });

  return (
    <>
      <section className="card" aria-labelledby="rename-title">
        <h2 id="rename-title">Name</h2>
        <form
          className="records-form"
          noValidate
          onSubmit={renameForm.handleSubmit(({ name }) => {
            setRenamed(null);
            rename.mutate(name);
          })}
        >
          <Field
            label="Topic name"
            autoComplete="off"
            error={renameForm.formState.errors.name}
            {...renameForm.register('name')}
          />
          <FormAlert message={rename.error?.message} />
          <FormNotice message={renamed} />
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={rename.isPending}>
              {rename.isPending ? 'Renaming…' : 'Rename'}
            </button>
          </div>
        </form>
      </section>

      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Subscribers ({topic.subscribers.length})</h2>
        <form
          className="records-form"
          noValidate
          onSubmit={addForm.handleSubmit(({ ids }) => {
            setAdded(null);
            add.mutate(idsOf(ids));
          })}
        >
          <div className="wide">
            <TextAreaField
              label="Add subscribers by ID"
              hint="One a line, or separated by commas. They must exist in this environment."
              spellCheck={false}
              rows={3}
              error={addForm.formState.errors.ids}
              {...addForm.register('ids')}
            />
          </div>
          <FormAlert message={add.error?.message} />
          {added && added.notFound.length > 0 && (
            <div role="alert" className="alert alert-error">
              No subscriber has {added.notFound.length === 1 ? 'the ID' : 'the IDs'}{' '}
              {added.notFound.join(', ')}: {added.notFound.length === 1 ? 'it was' : 'they were'}{' '}
              not added.
            </div>
          )}
          {added && added.succeeded.length > 0 && (
            <FormNotice message={`Added ${added.succeeded.join(', ')}.`} />
          )}
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={add.isPending}>
              {add.isPending ? 'Adding…' : 'Add'}
            </button>
          </div>
        </form>
        <FormAlert message={remove.error?.message} />
        {topic.subscribers.length === 0 ? (
          <p className="records-empty">No subscriber in this topic yet: add some by their ID.</p>
        ) : (
          <ul className="records-list">
            {topic.subscribers.map((id) => (
              <li key={id}>
                <Link to={`/subscribers/${encodeURIComponent(id)}`} className="wrap-anywhere">
                  {id}
                </Link>
                <button
                  type="button"
                  className="button button-secondary"
                  aria-label={`Remove ${id} from the topic`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(id)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete the topic</h2>
        <p className="muted">A topic can be deleted once it has no subscriber left.</p>
        <button type="button" className="button button-secondary" onClick={() => setDeleting(true)}>
          Delete the topic
        </button>
      </section>
      {deleting && <DeleteTopic topic={topic} onClose={() => setDeleting(false)} />}
    </>
  );
}

function DeleteTopic({ topic, onClose }: { topic: Topic; onClose: () => void }) {
  return (
    <DeleteRecordDialog
      name={topic.name}
      apiPath={topicPath(topic.key)}
      recordKey={['topic', topic.key]}
      listKey="topics"
      listPath="/topics"
      onClose={onClose}
    >
      <p>
        Triggers to the key <code>{topic.key}</code> stop reaching anyone. Its subscribers stay.
      </p>
    </DeleteRecordDialog>
  );
}
