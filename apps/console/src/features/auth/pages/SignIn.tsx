import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { api, type Session } from '../../../lib/api';
import { emailField, z } from '../../../lib/forms';
import { useSession } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert } from '../../../components/FormAlert';
import { AuthCard } from '../components/AuthCard';
import { ProviderButtons, providerErrors } from '../components/ProviderButtons';

const schema = z.object({
  email: emailField,
  password: z.string().check(z.minLength(1, { error: 'Enter your password' })),
});
type Values = z.infer<typeof schema>;

export default function SignIn() {
  const { begin } = useSession();
  const [params] = useSearchParams();
  const providerError = params.get('error');
  const [error, setError] = useState<string | null>(
    providerError ? (providerErrors[providerError] ?? 'The sign-in failed. Try again.') : null,
  );
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema) });

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      const { data } = await api<{ data: Session }>('/v1/auth/login', {
        method: 'POST',
        body: values,
      });
      begin(data);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The sign-in failed. Try again.');
    }
  });

  return (
    <AuthCard title="Sign in to Sino">
      <ProviderButtons />
      <form onSubmit={submit} noValidate className="form">
        <FormAlert message={error} />
        <Field
          label="E-mail"
          type="email"
          autoComplete="username"
          error={errors.email}
          {...register('email')}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password}
          {...register('password')}
        />
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="auth-links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/sign-up">Create an account</Link>
      </p>
    </AuthCard>
  );
}
