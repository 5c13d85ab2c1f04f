import { useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { SandboxedHtml } from '../../../components/SandboxedHtml';
import { ErrorState, Loading } from '../../../components/States';
import { useOutbox, useOutboxMail, when, type SandboxMail } from '../lib/queries';

const titleOf = (mail: SandboxMail) =>
  mail.channel === 'email' ? mail.subject || '(no subject)' : `SMS to ${mail.to.join(', ')}`;

/**
 * What the sandbox providers ("Novu Email", "Novu SMS") delivered, newest first, a page of 20
 * at a time, all or one channel (`?page=` and `?channel=` in the address).
 */
export function Outbox() {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('page') ?? '0');
  const page = Number.isInteger(raw) && raw >= 0 ? raw : 0;
  const given = params.get('channel');
  const channel = given === 'email' || given === 'sms' ? given : undefined;
  const outbox = useOutbox(page, channel);
  const channelId = useId();
  /** The address's parameters, the page dropped when the channel changes. */
  const go = (next: { page?: number; channel?: 'email' | 'sms' | undefined }) =>
    setParams({
      ...((next.page ?? 0) > 0 && { page: String(next.page) }),
      ...(next.channel && { channel: next.channel }),
    });
  return (
    <section className="integrations-panel" aria-labelledby="outbox-title">
      <h2 id="outbox-title">Sandbox outbox</h2>
      <p className="muted">
        E-mails and SMS sent through the sandbox providers land here instead of reaching anyone,
        kept for seven days.
      </p>
      <div className="field outbox-filter">
        <label htmlFor={channelId}>Channel</label>
        <select
          id={channelId}
          value={channel ?? ''}
          onChange={(event) =>
            go({ channel: (event.target.value || undefined) as 'email' | 'sms' | undefined })
          }
        >
          <option value="">E-mail and SMS</option>
          <option value="email">E-mail</option>
          <option value="sms">SMS</option>
        </select>
      </div>
      {outbox.isPending ? (
        <Loading label="Loading the outbox…" />
      ) : outbox.isError ? (
        <ErrorState message={outbox.error.message} retry={() => void outbox.refetch()} />
      ) : outbox.data.data.length === 0 ? (
        <p className="muted">
          {page > 0
            ? 'No more messages.'
            : channel
              ? `No ${channel === 'email' ? 'e-mail' : 'SMS'} yet.`
              : 'Nothing yet. Send a test from the sandbox e-mail or SMS integration, or trigger a workflow while no other provider of its channel is active.'}
        </p>
      ) : (
        <ul className="outbox-list">
          {outbox.data.data.map((mail) => (
            <li key={mail._id}>
              <Link to={`/integrations/outbox/${mail._id}`}>{titleOf(mail)}</Link>
              <span className="muted">
                {mail.channel === 'email' ? 'E-mail' : 'SMS'} to {mail.to.join(', ')} ·{' '}
                <time dateTime={mail.createdAt}>{when(mail.createdAt)}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
      {(page > 0 || outbox.data?.hasMore) && (
        <nav aria-label="Outbox pages" className="actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={page === 0}
            onClick={() => go({ page: page - 1, channel })}
          >
            Newer
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={!outbox.data?.hasMore}
            onClick={() => go({ page: page + 1, channel })}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

/** One message of the outbox: an e-mail as it would look (in the sandboxed frame), or the SMS. */
export function OutboxMail() {
  const { mailId = '' } = useParams();
  const mail = useOutboxMail(mailId);
  return (
    <section className="integrations-panel" aria-labelledby="mail-title">
      <p>
        <Link to="/integrations/outbox">← Sandbox outbox</Link>
      </p>
      {mail.isPending ? (
        <Loading label="Loading the message…" />
      ) : mail.isError ? (
        <ErrorState message={mail.error.message} retry={() => void mail.refetch()} />
      ) : (
        <>
          <h2 id="mail-title">{titleOf(mail.data)}</h2>
          <dl className="mail-headers">
            <div>
              <dt>From</dt>
              <dd>{mail.data.from ?? '—'}</dd>
            </div>
            <div>
              <dt>To</dt>
              <dd>{mail.data.to.join(', ')}</dd>
            </div>
            <div>
              <dt>Sent</dt>
              <dd>
                <time dateTime={mail.data.createdAt}>{when(mail.data.createdAt)}</time>
              </dd>
            </div>
          </dl>
          {mail.data.channel === 'email' ? (
            <>
              <SandboxedHtml html={mail.data.content} title="The e-mail as it would look" />
              {mail.data.text && (
                <details>
                  <summary>Plain-text part</summary>
                  <pre className="mail-text" tabIndex={0}>
                    {mail.data.text}
                  </pre>
                </details>
              )}
            </>
          ) : (
            <pre className="mail-text" tabIndex={0}>
              {mail.data.content}
            </pre>
          )}
        </>
      )}
    </section>
  );
}
