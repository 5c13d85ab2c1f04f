import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { CodeBlock } from '../../../components/CodeBlock';
import { CopyButton } from '../../../components/CopyButton';
import { ErrorState, Loading } from '../../../components/States';
import { FirstNotification } from '../components/FirstNotification';
import '../get-started.css';
import {
  curlTrigger,
  nodeTrigger,
  novuNotificationCenter,
  sinoReactInbox,
  type SnippetValues,
} from '../lib/snippets';

interface Environment {
  _id: string;
  name: string;
  identifier: string;
  widget?: { notificationCenterEncryption: boolean };
}
interface ApiKey {
  _id: string;
  key: string;
  expiresAt: string | null;
}

/** The environment's identifiers and the snippets that use them. */
export default function GetStarted() {
  const { token } = useSignedIn();
  const environment = useQuery({
    queryKey: ['environment', token],
    queryFn: () => api<{ data: Environment }>('/v1/environments/me').then((r) => r.data),
  });
  // Admins only (members get 403): a member's snippets keep the key's name instead.
  const keys = useQuery({
    queryKey: ['api-keys', token],
    queryFn: () => api<{ data: ApiKey[] }>('/v1/environments/api-keys').then((r) => r.data),
  });

  if (environment.isPending || keys.isPending) return <Loading />;
  if (environment.isError)
    return (
      <ErrorState message={environment.error.message} retry={() => void environment.refetch()} />
    );
  const keysRefused = keys.error instanceof ApiError && keys.error.status === 403;
  if (keys.isError && !keysRefused)
    return <ErrorState message={keys.error.message} retry={() => void keys.refetch()} />;
  // The key that keeps working: not one a regeneration is retiring.
  const apiKey = keys.data?.find((k) => k.expiresAt === null)?.key ?? null;
  const values: SnippetValues = {
    origin: window.location.origin,
    applicationIdentifier: environment.data.identifier,
    apiKey,
  };

  return (
    <div className="page">
      <header className="page-header">
        <h1>Get started</h1>
        <p className="muted">
          Trigger your first notification from the <strong>{environment.data.name}</strong>{' '}
          environment and show it in an inbox.
        </p>
      </header>

      <section aria-labelledby="keys-title" className="card">
        <h2 id="keys-title">Your environment's keys</h2>
        <dl className="keys">
          <div className="key-row">
            <dt>Application identifier</dt>
            <dd>
              <code data-testid="application-identifier">{values.applicationIdentifier}</code>
              <CopyButton value={values.applicationIdentifier} label="Copy identifier" />
            </dd>
          </div>
          <div className="key-row">
            <dt>API key</dt>
            <dd>
              {apiKey ? (
                <>
                  <code data-testid="api-key">{apiKey}</code>
                  <CopyButton value={apiKey} label="Copy API key" />
                </>
              ) : (
                <span className="muted">Only admins see the API keys: ask one for a key.</span>
              )}
            </dd>
          </div>
        </dl>
        <p className="hint">
          The API key is a secret: use it from your server only. The application identifier is
          public: the inbox in your web app uses it.
        </p>
      </section>

      <section aria-labelledby="trigger-title" className="card">
        <h2 id="trigger-title">1. Trigger a notification</h2>
        <p>
          Sino speaks Novu's API: the <code>@novu/node</code> SDK works with it as it is. The
          workflow <code>welcome</code> here is an example: use one of yours.
        </p>
        <CodeBlock title="Node.js (@novu/node)" code={nodeTrigger(values)} />
        <CodeBlock title="curl" code={curlTrigger(values)} />
      </section>

      <section aria-labelledby="inbox-title" className="card">
        <h2 id="inbox-title">2. Show the inbox in your app</h2>
        <CodeBlock title="React (@sino/react)" code={sinoReactInbox(values)} />
        <CodeBlock
          title="React (@novu/notification-center)"
          code={novuNotificationCenter(values)}
        />
      </section>

      <FirstNotification
        environmentName={environment.data.name}
        applicationIdentifier={environment.data.identifier}
        hmacRequired={environment.data.widget?.notificationCenterEncryption === true}
        apiKey={apiKey}
      />
    </div>
  );
}
