import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { api, type Session } from '../../../lib/api';
import { emailField, nameField, newPasswordField, optionalText, z } from '../../../lib/forms';
import { useSession } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert } from '../../../components/FormAlert';
import { AuthCard } from '../components/AuthCard';
import { ProviderButtons } from '../components/ProviderButtons';

const schema = z.object({
  firstName: nameField('first name'),
  lastName: optionalText,
  organizationName: optionalText,
  email: emailField,
  password: newPasswordField,
});
type Values = z.infer<typeof schema>;

export default function SignUp() {
  const { begin } = useSession();
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema) });

  const submit = handleSubmit(async ({ lastName, organizationName, ...values }) => {
    setError(null);
    try {
      const { data } = await api<{ data: Session }>('/v1/auth/register', {
        method: 'POST',
        // Empty optional fields are left out: the server takes its defaults.
        body: {
          ...values,
          ...(lastName && { lastName }),
          ...(organizationName && { organizationName }),
        },
      });
      begin(data);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The sign-up failed. Try again.');
    }
  });

  return (
    <AuthCard title="Create your Sino account">
      <ProviderButtons />
      <form onSubmit={submit} noValidate className="form">
        <FormAlert message={error} />
        <Field
          label="First name"
          autoComplete="given-name"
          error={errors.firstName}
          {...register('firstName')}
        />
        <Field
          label="Last name (optional)"
          autoComplete="family-name"
          error={errors.lastName}
          {...register('lastName')}
        />
        <Field
          label="Organization name (optional)"
          autoComplete="organization"
          error={errors.organizationName}
          {...register('organizationName')}
        />
        <Field
          label="E-mail"
          type="email"
          autoComplete="email"
          error={errors.email}
          {...register('email')}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters."
          error={errors.password}
          {...register('password')}
        />
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="auth-links">
        <Link to="/sign-in">Already have an account? Sign in</Link>
      </p>
    </AuthCard>
  );
}
