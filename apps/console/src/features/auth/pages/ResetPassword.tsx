import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../../lib/api';
import { newPasswordField, z } from '../../../lib/forms';
import { Field } from '../../../components/Field';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { AuthCard } from '../components/AuthCard';

const schema = z.object({ password: newPasswordField, confirmation: z.string() }).check(
  z.refine((v) => v.password === v.confirmation, {
    path: ['confirmation'],
    error: 'The two passwords differ',
  }),
);
type Values = z.infer<typeof schema>;

/** The password-reset e-mail's link: /console/reset-password?token=… */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema) });

  const submit = handleSubmit(async ({ password }) => {
    setError(null);
    try {
      await api('/v1/auth/reset', { method: 'POST', body: { token, password } });
      setDone(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The reset failed. Try again.');
    }
  });

  return (
    <AuthCard title="Choose a new password">
      {!token ? (
        <FormAlert message="This link has no token: open the link from the e-mail again, or ask for a new one." />
      ) : done ? (
        <FormNotice message="Your password is changed, and your other sessions are signed out. Sign in with the new password." />
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <FormAlert message={error} />
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 12 characters."
            error={errors.password}
            {...register('password')}
          />
          <Field
            label="New password again"
            type="password"
            autoComplete="new-password"
            error={errors.confirmation}
            {...register('confirmation')}
          />
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Change password
          </button>
        </form>
      )}
      <p className="auth-links">
        <Link to="/sign-in">Sign in</Link>
        <Link to="/forgot-password">Ask for a new link</Link>
      </p>
    </AuthCard>
  );
}
