import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { api } from '../../../lib/api';
import { emailField, z } from '../../../lib/forms';
import { Field } from '../../../components/Field';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { AuthCard } from '../components/AuthCard';

const schema = z.object({ email: emailField });
type Values = z.infer<typeof schema>;

export default function ForgotPassword() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema) });

  const submit = handleSubmit(async (values) => {
    setError(null);
    try {
      await api('/v1/auth/reset/request', { method: 'POST', body: values });
      setSent(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The request failed. Try again.');
    }
  });

  return (
    <AuthCard title="Reset your password">
      {sent ? (
        // The server answers the same whether the address has an account (decision 050).
        <FormNotice message="If an account uses that address, a link to choose a new password is on its way. It works once, for 1 hour." />
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <FormAlert message={error} />
          <Field
            label="E-mail"
            type="email"
            autoComplete="email"
            error={errors.email}
            {...register('email')}
          />
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Send the link
          </button>
        </form>
      )}
      <p className="auth-links">
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </AuthCard>
  );
}
