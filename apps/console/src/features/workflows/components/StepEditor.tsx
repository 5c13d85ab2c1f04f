import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Field } from '../../../components/Field';
import { Labelled } from '../../../components/Labelled';
import { type WorkflowDraft } from '../lib/draft';
import { STEP_LABELS, TIME_UNITS, WEEK_DAYS, type Layout } from '../lib/types';
import { SYSTEM_ICON_NAMES, SystemIcon, type SystemIconName } from '@sino/react';
import { FilterEditor } from './FilterEditor';
import { TemplatePreview } from './TemplatePreview';

const ICON_LABELS: Record<SystemIconName, string> = {
  info: 'Information',
  success: 'Success',
  warning: 'Warning',
  error: 'Error',
  up: 'Up (an update)',
  question: 'Question',
};

const UNIT_LABELS: Record<(typeof TIME_UNITS)[number], string> = {
  seconds: 'Seconds',
  minutes: 'Minutes',
  hours: 'Hours',
  days: 'Days',
  weeks: 'Weeks',
  months: 'Months',
};

function UnitSelect({
  name,
  label,
}: {
  name: `steps.${number}.${'unit' | 'backoffUnit'}`;
  label: string;
}) {
  const { register } = useFormContext<WorkflowDraft>();
  return (
    <Labelled label={label}>
      {(props) => (
        <select {...props} {...register(name)}>
          {TIME_UNITS.map((u) => (
            <option key={u} value={u}>
              {UNIT_LABELS[u]}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

/** One step: its name, its template (with the live preview) or its timing, and its filter. */
export function StepEditor({
  index,
  count,
  layouts,
  payload,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  layouts: Layout[];
  payload: Record<string, unknown>;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const {
    register,
    control,
    trigger,
    formState: { errors, isSubmitted },
  } = useFormContext<WorkflowDraft>();
  const step = useWatch({ control, name: `steps.${index}` });
  const e = errors.steps?.[index];
  const p = `steps.${index}` as const;
  const label = STEP_LABELS[step.type];
  const titleId = useId();

  return (
    <section className="step-editor" aria-labelledby={titleId} data-testid="step-editor">
      <div className="step-editor-head">
        <h3 id={titleId}>
          Step {index + 1}: {label}
        </h3>
        <div className="step-editor-tools">
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            Move up
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            Move down
          </button>
          <button type="button" className="button button-secondary button-small" onClick={onRemove}>
            Remove step
          </button>
        </div>
      </div>
      <div className="workflow-grid">
        <Field label="Step name" error={e?.name} {...register(`${p}.name`)} />
        <label className="check step-active">
          <input type="checkbox" {...register(`${p}.active`)} /> Step active
        </label>
      </div>

      {step.type === 'delay' && (
        <>
          <Labelled label="Delay type">
            {(props) => (
              <select {...props} {...register(`${p}.delayType`)}>
                <option value="regular">Wait for a time</option>
                <option value="scheduled">Until a date in the payload</option>
              </select>
            )}
          </Labelled>
          {step.delayType === 'scheduled' ? (
            <Field
              label="Payload path of the date"
              placeholder="sendAt"
              hint="The trigger's payload holds an ISO 8601 date there: a past date goes on at once, a missing one fails the step."
              error={e?.delayPath}
              {...register(`${p}.delayPath`)}
            />
          ) : (
            <div className="workflow-grid">
              <Field
                label="Wait for"
                inputMode="numeric"
                error={e?.amount}
                {...register(`${p}.amount`)}
              />
              <UnitSelect name={`${p}.unit`} label="Unit" />
            </div>
          )}
        </>
      )}

      {step.type === 'digest' && (
        <>
          <Labelled label="Digest type">
            {(props) => (
              <select {...props} {...register(`${p}.digestType`)}>
                <option value="regular">Regular: collect for a time window</option>
                <option value="backoff">Backoff: only when events come close together</option>
                <option value="timed">Timed: at a time of day</option>
              </select>
            )}
          </Labelled>
          <div className="workflow-grid">
            {step.digestType !== 'timed' && (
              <>
                <Field
                  label="Collect events for"
                  inputMode="numeric"
                  error={e?.amount}
                  {...register(`${p}.amount`)}
                />
                <UnitSelect name={`${p}.unit`} label="Window unit" />
              </>
            )}
            {step.digestType === 'backoff' && (
              <>
                <Field
                  label="Backoff window"
                  inputMode="numeric"
                  hint="An event within this long of the previous one starts a digest."
                  error={e?.backoffAmount}
                  {...register(`${p}.backoffAmount`)}
                />
                <UnitSelect name={`${p}.backoffUnit`} label="Backoff unit" />
              </>
            )}
            {step.digestType === 'timed' && (
              <>
                <Field
                  label="Send at (HH:mm, UTC)"
                  placeholder="09:00"
                  error={e?.atTime}
                  {...register(`${p}.atTime`)}
                />
                <Field
                  label="Days of the month (optional)"
                  placeholder="1, 15"
                  hint="Separated by commas; empty: any day."
                  error={e?.monthDays}
                  {...register(`${p}.monthDays`)}
                />
              </>
            )}
            <Field
              label="Digest key (optional)"
              hint="A payload path: events are digested apart for each of its values."
              error={e?.digestKey}
              {...register(`${p}.digestKey`)}
            />
          </div>
          {step.digestType === 'timed' && (
            <fieldset className="workflow-prefs">
              <legend>On these days of the week (none: every day)</legend>
              <div className="workflow-channels">
                {WEEK_DAYS.map((day) => (
                  <label key={day} className="check">
                    <input type="checkbox" value={day} {...register(`${p}.weekDays`)} />{' '}
                    {day[0]!.toUpperCase() + day.slice(1)}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
        </>
      )}

      {step.type === 'email' && (
        <div className="workflow-grid">
          <Field label="Subject" error={e?.subject} {...register(`${p}.subject`)} />
          <Field label="Preheader (optional)" {...register(`${p}.preheader`)} />
          <Field label="Sender name (optional)" {...register(`${p}.senderName`)} />
          <Labelled label="Layout" hint="The frame the e-mail is placed in (Layouts section).">
            {(props) => (
              <select {...props} {...register(`${p}.layoutId`)}>
                <option value="">The environment’s default layout</option>
                {layouts.map((l) => (
                  <option key={l._id} value={l._id}>
                    {l.name}
                    {l.isDefault ? ' (default)' : ''}
                  </option>
                ))}
              </select>
            )}
          </Labelled>
        </div>
      )}
      {step.type === 'push' && <Field label="Title" error={e?.title} {...register(`${p}.title`)} />}
      {step.type === 'in_app' && (
        <div className="workflow-grid">
          <Field
            label="Open on click (optional)"
            placeholder="/bookings/{{bookingId}}"
            hint="The link the inbox opens when the notification is clicked."
            error={e?.redirectUrl}
            {...register(`${p}.redirectUrl`)}
          />
          <Field
            label="Primary button (optional)"
            error={e?.primaryButton}
            {...register(`${p}.primaryButton`)}
          />
          <Field
            label="Secondary button (optional)"
            error={e?.secondaryButton}
            {...register(`${p}.secondaryButton`)}
          />
          <Labelled label="Avatar" hint="Shown beside the message in the inbox.">
            {(props) => (
              <select
                {...props}
                {...register(`${p}.avatar`, {
                  // The image's address is checked again once the avatar is no longer one
                  // (after a first save, as every field is): its error would stay otherwise.
                  onChange: () => {
                    if (isSubmitted) void trigger(`${p}.avatarUrl`);
                  },
                })}
              >
                <option value="none">None</option>
                <option value="user">The trigger’s actor (their picture)</option>
                <option value="system_icon">A system icon</option>
                <option value="system_custom">An image</option>
              </select>
            )}
          </Labelled>
          {step.avatar === 'system_icon' && (
            <Labelled label="Icon">
              {(props) => (
                <span className="avatar-choice">
                  <select {...props} {...register(`${p}.avatarIcon`)}>
                    {SYSTEM_ICON_NAMES.map((name) => (
                      <option key={name} value={name}>
                        {ICON_LABELS[name]}
                      </option>
                    ))}
                  </select>
                  <span className={`avatar-sample avatar-sample--${step.avatarIcon}`} aria-hidden>
                    <SystemIcon name={step.avatarIcon} />
                  </span>
                </span>
              )}
            </Labelled>
          )}
          {step.avatar === 'system_custom' && (
            <Field
              label="Image address"
              placeholder="https://example.com/logo.png"
              autoComplete="off"
              error={e?.avatarUrl}
              {...register(`${p}.avatarUrl`)}
            />
          )}
        </div>
      )}

      {step.type !== 'digest' && step.type !== 'delay' && (
        <>
          <Labelled
            label={step.type === 'email' ? 'Body (HTML)' : 'Message'}
            hint="Handlebars: {{name}} reads the payload, {{subscriber.firstName}} the subscriber."
            error={e?.content}
          >
            {(props) => (
              <textarea
                {...props}
                rows={step.type === 'email' ? 10 : 4}
                spellCheck={step.type !== 'email'}
                className={step.type === 'email' ? 'code-input' : undefined}
                {...register(`${p}.content`)}
              />
            )}
          </Labelled>
          <TemplatePreview step={step} payload={payload} />
        </>
      )}

      <FilterEditor index={index} />
    </section>
  );
}
