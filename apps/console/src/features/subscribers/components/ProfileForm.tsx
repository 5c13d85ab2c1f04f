import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../../../components/Field';
import { TextAreaField } from '../../../components/TextAreaField';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { profileSchema, type ProfileValues } from '../lib/profile';

/**
 * A subscriber's profile: checked as the server would before it is sent; on the server's
 * refusal the alert says why and what was typed stays.
 */
export function ProfileForm({
  initial,
  isNew,
  busy,
  error,
  notice,
  onSubmit,
}: {
  initial: ProfileValues;
  isNew: boolean;
  busy: boolean;
  error: string | null | undefined;
  notice?: string | null;
  onSubmit: (values: ProfileValues) => void;
}) {
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: initial,
  });
  const errors = form.formState.errors;
  return (
    <form className="records-form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
      {isNew && (
        <Field
          label="Subscriber ID"
          hint="The ID your system knows them by; it cannot change later."
          autoComplete="off"
          error={errors.subscriberId}
          {...form.register('subscriberId')}
        />
      )}
      <Field
        label="First name"
        autoComplete="off"
        error={errors.firstName}
        {...form.register('firstName')}
      />
      <Field
        label="Last name"
        autoComplete="off"
        error={errors.lastName}
        {...form.register('lastName')}
      />
      <Field
        label="E-mail"
        type="email"
        autoComplete="off"
        error={errors.email}
        {...form.register('email')}
      />
      <Field
        label="Phone"
        type="tel"
        autoComplete="off"
        error={errors.phone}
        {...form.register('phone')}
      />
      <Field
        label="Locale"
        hint="A language tag, like en or pt-BR: translated workflows use it."
        autoComplete="off"
        error={errors.locale}
        {...form.register('locale')}
      />
      <Field
        label="Avatar URL"
        type="url"
        autoComplete="off"
        error={errors.avatar}
        {...form.register('avatar')}
      />
      <div className="wide">
        <TextAreaField
          label="Data (JSON)"
          hint="Custom fields your templates read as subscriber.data, as a JSON object."
          spellCheck={false}
          error={errors.data}
          {...form.register('data')}
        />
      </div>
      <FormAlert message={error} />
      <FormNotice message={notice} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : isNew ? 'Add the subscriber' : 'Save the profile'}
        </button>
      </div>
    </form>
  );
}
