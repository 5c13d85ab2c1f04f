import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, type Session } from '../../../lib/api';
import { nameField, newPasswordField, optionalText, z } from '../../../lib/forms';
import { useSession } from '../../../lib/session';
import { Field } from '../../../components/Field';
import { FormAlert } from '../../../components/FormAlert';
import { ErrorState, Loading } from '../../../components/States';
import { AuthCard } from '../components/AuthCard';

interface Invitation {
  inviter: { firstName: string | null };
  organization: { _id: string; name: string };
  email: string;
}

const schema = z.object({
  firstName: nameField('first name'),
  lastName: optionalText,
  password: newPasswordField,
});
type Values = z.infer<typeof schema>;

/** The invitation e-mail's link: /console/accept-invitation?token=… (platform-mail.ts). */
export default function AcceptInvitation() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { state, begin } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () =>
      api<{ data: Invitation }>(`/v1/invites/${encodeURIComponent(token)}`).then((r) => r.data),
    enabled: token !== '',
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema) });

  const accept = async (body?: Values) => {
    setError(null);
    try {
      const { data } = await api<{ data: Session }>(
        `/v1/invites/${encodeURIComponent(token)}/accept`,
        {
          method: 'POST',
          ...(body && {
            body: {
              firstName: body.firstName,
              password: body.password,
              ...(body.lastName && { lastName: body.lastName }),
            },
          }),
        },
      );
      begin(data);
      await navigate('/', { replace: true });
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 409
          ? `${e.message}. Sign in with that address, then open this link again.`
          : e instanceof Error
            ? e.message
            : 'The invitation could not be accepted. Try again.',
      );
    }
  };

  if (!token)
    return (
      <AuthCard title="Accept an invitation">
        <FormAlert message="This link has no token: open the link from the invitation e-mail again." />
      </AuthCard>
    );
  if (invitation.isPending) return <Loading label="Reading the invitation…" />;
  if (invitation.isError)
    return (
      <AuthCard title="Accept an invitation">
        <ErrorState message={invitation.error.message} />
        <p className="auth-links">
          <Link to="/sign-in">Sign in</Link>
        </p>
      </AuthCard>
    );

  const { organization, inviter, email } = invitation.data;
  const signedIn = state.status === 'signed-in' ? state.session : null;
  return (
    <AuthCard title={`Join ${organization.name} on Sino`}>
      <p>
        {inviter.firstName ?? 'An admin'} invited <strong>{email}</strong> to {organization.name}.
      </p>
      {signedIn ? (
        <div className="form">
          <FormAlert message={error} />
          <p>You are signed in as {signedIn.user.email}.</p>
          <button type="button" className="button button-primary" onClick={() => void accept()}>
            Accept the invitation
          </button>
        </div>
      ) : (
        <form onSubmit={handleSubmit(accept)} noValidate className="form">
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
            label="Password"
            type="password"
            autoComplete="new-password"
            hint="At least 12 characters."
            error={errors.password}
            {...register('password')}
          />
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            Accept and create my account
          </button>
          <p className="auth-links">
            <Link to={`/sign-in?next=${encodeURIComponent(`/accept-invitation?token=${token}`)}`}>
              I have an account: sign in first
            </Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
