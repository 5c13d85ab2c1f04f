import { useId } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { Field } from '../../../components/Field';
import { FILTER_SOURCES, OPERATORS, newCondition, type WorkflowDraft } from '../lib/draft';
import { STEP_LABELS } from '../lib/types';
import { Labelled } from '../../../components/Labelled';

const FIELD_SOURCES = new Set(['payload', 'tenant', 'subscriber', 'webhook']);

/**
 * The step's filter: conditions on the payload, the tenant, the subscriber, a webhook's answer,
 * the subscriber being online, or what became of an earlier step; all or any of them.
 */
export function FilterEditor({ index }: { index: number }) {
  const { register, control } = useFormContext<WorkflowDraft>();
  const conditions = useFieldArray({ control, name: `steps.${index}.conditions`, keyName: 'key' });
  const steps = useWatch({ control, name: 'steps' });
  const titleId = useId();
  const earlier = steps.slice(0, index);
  return (
    <section className="step-filters" aria-labelledby={titleId}>
      <h4 id={titleId}>Filter</h4>
      {conditions.fields.length === 0 ? (
        <p className="muted">No condition: the step always runs.</p>
      ) : (
        <Labelled label="Run the step when">
          {(props) => (
            <select {...props} {...register(`steps.${index}.filterJoin`)}>
              <option value="AND">All conditions are met</option>
              <option value="OR">Any condition is met</option>
            </select>
          )}
        </Labelled>
      )}
      <ol className="conditions">
        {conditions.fields.map((field, c) => (
          <Condition
            key={field.key}
            step={index}
            index={c}
            earlier={earlier.map((s, i) => ({
              uuid: s.uuid,
              label: `${i + 1}. ${STEP_LABELS[s.type]}${s.name ? `: ${s.name}` : ''}`,
            }))}
            onRemove={() => conditions.remove(c)}
          />
        ))}
      </ol>
      <button
        type="button"
        className="button button-secondary button-start"
        onClick={() => conditions.append(newCondition(), { shouldFocus: false })}
      >
        Add condition
      </button>
    </section>
  );
}

function Condition({
  step,
  index,
  earlier,
  onRemove,
}: {
  step: number;
  index: number;
  earlier: { uuid: string; label: string }[];
  onRemove: () => void;
}) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<WorkflowDraft>();
  const p = `steps.${step}.conditions.${index}` as const;
  const c = useWatch({ control, name: p });
  const e = errors.steps?.[step]?.conditions?.[index];
  const n = index + 1;
  return (
    <li className="condition" data-testid="filter-condition">
      <fieldset>
        <legend>Condition {n}</legend>
        <div className="workflow-grid">
          <Labelled label={`Source of condition ${n}`}>
            {(props) => (
              <select {...props} {...register(`${p}.on`)}>
                {FILTER_SOURCES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
          {FIELD_SOURCES.has(c.on) && (
            <>
              {c.on === 'webhook' && (
                <Field
                  label={`Webhook URL of condition ${n}`}
                  type="url"
                  error={e?.webhookUrl}
                  {...register(`${p}.webhookUrl`)}
                />
              )}
              <Field
                label={`Field of condition ${n}`}
                hint={c.on === 'payload' ? 'A payload path, such as order.total' : undefined}
                error={e?.field}
                {...register(`${p}.field`)}
              />
              <Labelled label={`Operator of condition ${n}`}>
                {(props) => (
                  <select {...props} {...register(`${p}.operator`)}>
                    {OPERATORS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              {c.operator !== 'IS_DEFINED' && (
                <Field
                  label={`Value of condition ${n}`}
                  error={e?.value}
                  {...register(`${p}.value`)}
                />
              )}
            </>
          )}
          {c.on === 'isOnline' && (
            <Labelled label={`Subscriber of condition ${n}`}>
              {(props) => (
                <select {...props} {...register(`${p}.online`)}>
                  <option value="true">Is online</option>
                  <option value="false">Is offline</option>
                </select>
              )}
            </Labelled>
          )}
          {c.on === 'isOnlineInLast' && (
            <>
              <Field
                label={`Online within, condition ${n}`}
                inputMode="numeric"
                error={e?.value}
                {...register(`${p}.value`)}
              />
              <Labelled label={`Time unit of condition ${n}`}>
                {(props) => (
                  <select {...props} {...register(`${p}.timeOperator`)}>
                    <option value="minutes">Minutes</option>
                    <option value="hours">Hours</option>
                    <option value="days">Days</option>
                  </select>
                )}
              </Labelled>
            </>
          )}
          {c.on === 'previousStep' && (
            <>
              <Labelled label={`Earlier step of condition ${n}`} error={e?.step}>
                {(props) => (
                  <select {...props} {...register(`${p}.step`)}>
                    <option value="">Choose a step</option>
                    {earlier.map((s) => (
                      <option key={s.uuid} value={s.uuid}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                )}
              </Labelled>
              <Labelled label={`Its message was, condition ${n}`}>
                {(props) => (
                  <select {...props} {...register(`${p}.stepType`)}>
                    <option value="read">Read</option>
                    <option value="unread">Unread</option>
                    <option value="seen">Seen</option>
                    <option value="unseen">Unseen</option>
                  </select>
                )}
              </Labelled>
            </>
          )}
        </div>
        <button type="button" className="button button-secondary button-small" onClick={onRemove}>
          Remove condition {n}
        </button>
      </fieldset>
    </li>
  );
}
