import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

interface Provider {
  id: 'github' | 'google';
  name: string;
}

/** GitHub and Google, only those the server says are configured (GET /v1/auth/providers). */
export function ProviderButtons() {
  const providers = useQuery({
    queryKey: ['auth-providers'],
    queryFn: () => api<{ data: Provider[] }>('/v1/auth/providers').then((r) => r.data),
    staleTime: Infinity,
  });
  if (!providers.data?.length) return null;
  return (
    <div className="providers">
      {providers.data.map((p) => (
        // A full-page navigation: the server redirects to the provider and back (decision 049).
        <a key={p.id} className="button button-secondary" href={`/v1/auth/${p.id}`}>
          Continue with {p.name}
        </a>
      ))}
      <p className="divider">
        <span>or</span>
      </p>
    </div>
  );
}

/** The codes the provider sign-in's callback sends back (oauth-routes.ts), in plain words. */
export const providerErrors: Record<string, string> = {
  oauth_state: 'The sign-in took too long or was started elsewhere. Try again.',
  oauth_denied: 'The sign-in was cancelled at the provider.',
  oauth_failed: 'The provider could not sign you in. Try again in a moment.',
  email_unverified: 'The provider has no verified e-mail address for your account.',
  signup_closed: 'Sign-up is by invitation only on this installation: ask an admin to invite you.',
  no_organization: 'Your account belongs to no organization: ask an admin to invite you.',
  account_inactive: 'This account is deactivated.',
  account_unverified:
    'An account with this address exists but its address is not confirmed: sign in with its password.',
  identity_taken: 'That provider account is linked to another person.',
};
