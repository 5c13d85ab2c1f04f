import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../../lib/api';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import { AuthCard } from '../components/AuthCard';

/**
 * The verification e-mail's link: /console/verify-email?token=… The token is used by a press
 * of the button, not on load: a mail scanner opening the link must not spend it.
 */
export default function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await api('/v1/auth/verify-email', { method: 'POST', body: { token } });
      setDone(true);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The confirmation failed. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title="Confirm your e-mail address">
      {!token ? (
        <FormAlert message="This link has no token: open the link from the e-mail again." />
      ) : done ? (
        <FormNotice message="Your address is confirmed." />
      ) : (
        <div className="form">
          <FormAlert message={error} />
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void confirm()}
          >
            Confirm my address
          </button>
        </div>
      )}
      <p className="auth-links">
        <Link to="/">Open the console</Link>
      </p>
    </AuthCard>
  );
}
