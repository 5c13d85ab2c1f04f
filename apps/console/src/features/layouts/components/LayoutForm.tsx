import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../../../components/Field';
import { TextAreaField } from '../../../components/TextAreaField';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { layoutSchema, type LayoutValues } from '../lib/layouts';

/**
 * A layout's name, identifier, description and HTML; checked before sending, kept on a
 * refusal. The HTML as typed goes to `onContentChange` (the page's preview of the draft).
 */
export function LayoutForm({
  initial,
  submitLabel,
  busy,
  error,
  notice,
  onSubmit,
  onContentChange,
}: {
  initial: LayoutValues;
  submitLabel: string;
  busy: boolean;
  error: string | null | undefined;
  notice?: string | null;
  onSubmit: (values: LayoutValues) => void;
  onContentChange: (content: string) => void;
}) {
  const form = useForm<LayoutValues>({
    resolver: zodResolver(layoutSchema),
    defaultValues: initial,
  });
  const content = useWatch({ control: form.control, name: 'content' });
  useEffect(() => onContentChange(content), [content, onContentChange]);
  const errors = form.formState.errors;
  return (
    <form className="records-form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <Field label="Name" autoComplete="off" error={errors.name} {...form.register('name')} />
      <Field
        label="Identifier"
        hint="How the API and steps name it."
        autoComplete="off"
        error={errors.identifier}
        {...form.register('identifier')}
      />
      <div className="wide">
        <Field
          label="Description"
          autoComplete="off"
          error={errors.description}
          {...form.register('description')}
        />
      </div>
      <div className="wide">
        <TextAreaField
          label="HTML content"
          hint="Each e-mail's content goes where {{{body}}} is; {{name}} reads a variable."
          spellCheck={false}
          rows={14}
          error={errors.content}
          {...form.register('content')}
        />
      </div>
      <FormAlert message={error} />
      <FormNotice message={notice} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
