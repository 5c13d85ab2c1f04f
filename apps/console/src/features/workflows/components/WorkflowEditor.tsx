import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { FormProvider, useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import {
  draftOf,
  draftSchema,
  emptyDraft,
  identifierOf,
  newStep,
  workflowBody,
  type WorkflowDraft,
} from '../lib/draft';
import { useGroups, useIsProduction, useLayouts, useWorkflow } from '../lib/queries';
import { CHANNELS, STEP_LABELS, STEP_TYPES, type StepType, type Workflow } from '../lib/types';
import { StepEditor } from './StepEditor';
import { TestTrigger } from './TestTrigger';
import { SamplePayload, useSamplePayload } from './SamplePayload';

/** A new workflow (`/workflows/new`) or one of the environment's (`/workflows/:id`). */
export function WorkflowEditor() {
  const { workflowId } = useParams();
  const workflow = useWorkflow(workflowId);
  const groups = useGroups();
  const layouts = useLayouts();
  const production = useIsProduction();

  const pending =
    (workflowId !== undefined && workflow.isPending) ||
    groups.isPending ||
    layouts.isPending ||
    production.isPending;
  if (pending) return <Loading label="Loading the workflow…" />;
  for (const q of [workflow, groups, layouts, production]) {
    if (q.isError)
      return (
        <div className="page">
          <p>
            <Link to="..">Back to the workflows</Link>
          </p>
          <ErrorState
            message={
              q.error instanceof ApiError && q.error.status === 404
                ? 'This workflow does not exist in this environment (it may have been deleted).'
                : q.error.message
            }
            retry={() => void q.refetch()}
          />
        </div>
      );
  }
  return (
    <EditorForm
      key={workflow.data?._id ?? 'new'}
      workflow={workflow.data}
      groups={groups.data!}
      layouts={layouts.data!}
      readOnly={production.data === true}
    />
  );
}

interface EditorProps {
  workflow: Workflow | undefined;
  groups: { _id: string; name: string }[];
  layouts: { _id: string; name: string; isDefault: boolean }[];
  readOnly: boolean;
}

function EditorForm({ workflow, groups, layouts, readOnly }: EditorProps) {
  const { token } = useSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [selected, setSelected] = useState(0);
  const [addType, setAddType] = useState<StepType>('in_app');
  // A workflow just created keeps the sample payload typed while making it.
  const { state } = useLocation() as { state: { sample?: string } | null };
  const sample = useSamplePayload(state?.sample);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = { add: useId(), group: useId(), description: useId(), prefs: useId() };

  const form = useForm<WorkflowDraft>({
    // raw: the form's own values go on (the schema checks them; it does not list every field).
    resolver: zodResolver(draftSchema, undefined, {
      raw: true,
    }) as unknown as Resolver<WorkflowDraft>,
    defaultValues: workflow ? draftOf(workflow) : emptyDraft(groups[0]?._id ?? ''),
  });
  const {
    register,
    handleSubmit,
    setValue,
    getValues,
    formState: { errors, dirtyFields },
  } = form;
  const steps = useFieldArray({ control: form.control, name: 'steps', keyName: 'key' });
  const critical = useWatch({ control: form.control, name: 'critical' });

  useEffect(() => headingRef.current?.focus(), []);

  const save = useMutation({
    mutationFn: (draft: WorkflowDraft) =>
      workflow
        ? api<{ data: Workflow }>(`/v1/workflows/${workflow._id}`, {
            method: 'PUT',
            body: workflowBody(draft),
          })
        : api<{ data: Workflow }>('/v1/workflows', { method: 'POST', body: workflowBody(draft) }),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: ['workflows', token] });
      queryClient.setQueryData(['workflow', token, data._id], data);
      if (workflow) {
        form.reset(draftOf(data));
        setNotice('The workflow was saved.');
      } else void navigate(`../${data._id}`, { relative: 'path', state: { sample: sample.text } });
    },
  });

  const status = useMutation({
    mutationFn: (active: boolean) =>
      api<{ data: Workflow }>(`/v1/workflows/${workflow!._id}/status`, {
        method: 'PUT',
        body: { active },
      }),
    onSuccess: ({ data }) => {
      queryClient.setQueryData(['workflow', token, data._id], data);
      void queryClient.invalidateQueries({ queryKey: ['workflows', token] });
      setNotice(data.active ? 'The workflow is active.' : 'The workflow is inactive.');
    },
  });

  const remove = useMutation({
    mutationFn: () => api(`/v1/workflows/${workflow!._id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['workflows', token] });
      void navigate('..', { relative: 'path' });
    },
  });

  const stepCount = steps.fields.length;
  const current = Math.min(selected, Math.max(0, stepCount - 1));
  const stepErrors = errors.steps;

  return (
    <FormProvider {...form}>
      <div className="page workflows workflow-editor">
        <p>
          <Link to="..">← Workflows</Link>
        </p>
        <div className="workflows-head">
          <h1 ref={headingRef} tabIndex={-1}>
            {workflow ? workflow.name : 'New workflow'}
          </h1>
          {workflow && (
            <span className={workflow.active ? 'status status-on' : 'status'}>
              {workflow.active ? 'Active' : 'Inactive'}
            </span>
          )}
        </div>
        {readOnly && (
          <p className="alert alert-info">
            This is Production: workflows change here by promotion from Development, so this one is
            read-only.
          </p>
        )}
        <form
          noValidate
          aria-label="Workflow"
          onSubmit={(event) => {
            setNotice(null);
            void handleSubmit((draft) => save.mutate(draft))(event);
          }}
        >
          <fieldset disabled={readOnly} className="workflow-fieldset">
            <section className="card workflow-settings" aria-labelledby="settings-title">
              <h2 id="settings-title">Settings</h2>
              <div className="workflow-grid">
                <Field
                  label="Name"
                  error={errors.name}
                  {...register('name', {
                    onChange: (event: { target: { value: string } }) => {
                      // A new workflow's identifier follows its name until it is typed itself.
                      if (!workflow && !dirtyFields.identifier)
                        setValue('identifier', identifierOf(event.target.value));
                    },
                  })}
                />
                <Field
                  label="Identifier"
                  hint="What your trigger names (POST /v1/events/trigger, name)."
                  error={errors.identifier}
                  {...register('identifier')}
                />
                <div className="field">
                  <label htmlFor={ids.group}>Group</label>
                  <select id={ids.group} {...register('groupId')}>
                    {groups.map((g) => (
                      <option key={g._id} value={g._id}>
                        {g.name}
                      </option>
                    ))}
                  </select>
                </div>
                <Field
                  label="Tags"
                  hint="Separated by commas."
                  error={errors.tags}
                  {...register('tags')}
                />
              </div>
              <div className="field">
                <label htmlFor={ids.description}>Description</label>
                <textarea
                  id={ids.description}
                  rows={2}
                  aria-invalid={errors.description ? true : undefined}
                  {...register('description')}
                />
                {errors.description?.message && (
                  <p className="field-error">{errors.description.message}</p>
                )}
              </div>
              <fieldset className="workflow-prefs" aria-describedby={ids.prefs}>
                <legend>Subscriber preferences</legend>
                <label className="check">
                  <input type="checkbox" {...register('critical')} /> Critical: always sent,
                  subscribers cannot turn it off
                </label>
                <p id={ids.prefs} className="hint">
                  {critical
                    ? 'A critical workflow ignores subscribers’ preferences.'
                    : 'The channels on by default for a subscriber who has not chosen.'}
                </p>
                <div className="workflow-channels">
                  {CHANNELS.map((c) => (
                    <label key={c} className="check">
                      <input
                        type="checkbox"
                        disabled={critical}
                        {...register(`preferences.${c}`)}
                      />{' '}
                      {STEP_LABELS[c]}
                    </label>
                  ))}
                </div>
              </fieldset>
            </section>

            <section className="card" aria-labelledby="steps-title">
              <h2 id="steps-title">Steps</h2>
              <div className="workflow-steps">
                <div className="workflow-step-list">
                  {stepCount === 0 ? (
                    <p className="muted">No step yet: add the first one below.</p>
                  ) : (
                    <ol aria-label="Steps, in order">
                      {steps.fields.map((field, index) => (
                        <li key={field.key}>
                          <button
                            type="button"
                            className={
                              index === current ? 'step-pick step-pick-current' : 'step-pick'
                            }
                            aria-current={index === current ? 'step' : undefined}
                            onClick={() => setSelected(index)}
                          >
                            {index + 1}. {STEP_LABELS[field.type]}
                            {getValues(`steps.${index}.name`) &&
                              `: ${getValues(`steps.${index}.name`)}`}
                            {stepErrors?.[index] && (
                              <span className="field-error"> (needs attention)</span>
                            )}
                          </button>
                        </li>
                      ))}
                    </ol>
                  )}
                  <div className="step-add">
                    <div className="field">
                      <label htmlFor={ids.add}>Step type</label>
                      <select
                        id={ids.add}
                        value={addType}
                        onChange={(event) => setAddType(event.target.value as StepType)}
                      >
                        {STEP_TYPES.map((t) => (
                          <option key={t} value={t}>
                            {STEP_LABELS[t]}
                          </option>
                        ))}
                      </select>
                    </div>
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => {
                        steps.append(newStep(addType), { shouldFocus: false });
                        setSelected(stepCount);
                      }}
                    >
                      Add step
                    </button>
                  </div>
                </div>
                {stepCount > 0 && steps.fields[current] && (
                  <StepEditor
                    key={steps.fields[current].key}
                    index={current}
                    count={stepCount}
                    layouts={layouts}
                    payload={sample.parsed}
                    onMove={(to) => {
                      steps.move(current, to);
                      setSelected(to);
                    }}
                    onRemove={() => {
                      steps.remove(current);
                      setSelected(Math.max(0, current - 1));
                    }}
                  />
                )}
              </div>
              <SamplePayload sample={sample} />
            </section>
          </fieldset>

          <FormAlert message={save.error?.message} />
          {Object.keys(errors).length > 0 && (
            <p role="alert" className="alert alert-error">
              Some fields need attention: nothing was saved.
            </p>
          )}
          <FormNotice message={notice} />
          {!readOnly && (
            <div className="workflow-actions">
              <button type="submit" className="button button-primary" disabled={save.isPending}>
                {save.isPending ? 'Saving…' : workflow ? 'Save changes' : 'Create the workflow'}
              </button>
              {workflow && (
                <>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={status.isPending}
                    onClick={() => {
                      setNotice(null);
                      status.mutate(!workflow.active);
                    }}
                  >
                    {workflow.active ? 'Deactivate' : 'Activate'}
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={() => setDeleting(true)}
                  >
                    Delete
                  </button>
                </>
              )}
            </div>
          )}
          <FormAlert message={status.error?.message} />
        </form>

        {workflow && <TestTrigger workflow={workflow} sample={sample} />}

        {deleting && workflow && (
          <ConfirmDialog
            title={`Delete ${workflow.name}?`}
            confirmLabel="Delete the workflow"
            busyLabel="Deleting…"
            busy={remove.isPending}
            error={remove.error?.message ?? null}
            onConfirm={() => remove.mutate()}
            onClose={() => setDeleting(false)}
          >
            <p>
              Triggers naming <code>{workflow.triggers[0]?.identifier}</code> will stop working.
              Notifications already sent keep it in the activity feed.
            </p>
          </ConfirmDialog>
        )}
      </div>
    </FormProvider>
  );
}
