import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import { useSignedIn } from '../../../lib/session';
import { ErrorState, Loading } from '../../../components/States';
import type { LiveState } from '../lib/live';
import {
  formatTime,
  overallStatus,
  statusLabel,
  stepLabel,
  subscriberName,
  type ActivityJob,
  type ActivityMessage,
  type ActivityNotification,
  type ExecutionDetail,
} from '../lib/types';
import { LiveBadge, StatusBadge } from './LiveBadge';

/** One notification: its steps in order, each with its statuses and execution timeline. */
export function NotificationDetail({ live }: { live: LiveState }) {
  const { notificationId = '' } = useParams();
  const { token } = useSignedIn();
  // Back to the list as it was left (its filters), when the reader came from it.
  const from = (useLocation().state as { feed?: string } | null)?.feed ?? '';
  const notification = useQuery({
    queryKey: ['activity-notification', notificationId, token],
    queryFn: ({ signal }) =>
      api<{ data: ActivityNotification }>(
        `/v1/notifications/${encodeURIComponent(notificationId)}`,
        { signal },
      ).then((r) => r.data),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const transactionId = notification.data?.transactionId;
  // The delivery status of each step's message (sent, delivered, bounced...), when one was made.
  const messages = useQuery({
    queryKey: ['activity-messages', transactionId, token],
    enabled: transactionId !== undefined,
    queryFn: ({ signal }) =>
      api<{ data: ActivityMessage[] }>(
        `/v1/messages?limit=100&transactionId=${encodeURIComponent(transactionId!)}`,
        { signal },
      ).then((r) => r.data),
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = notification.isSuccess;
  // A deep link or a click from the list: the reader starts at the notification's heading.
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded, notificationId]);

  const back = (
    <Link to={{ pathname: '..', search: from }} relative="path" className="back-link">
      ← All activity
    </Link>
  );
  if (notification.isPending) return <Loading label="Loading the notification…" />;
  if (notification.isError) {
    const missing = notification.error instanceof ApiError && notification.error.status === 404;
    return (
      <div className="page">
        {back}
        {missing ? (
          <div className="card empty-state">
            <h1>Notification not found</h1>
            <p className="muted">
              No notification of this environment has this id. It may belong to another environment,
              or its link may be incomplete.
            </p>
          </div>
        ) : (
          <ErrorState
            message={notification.error.message}
            retry={() => void notification.refetch()}
          />
        )}
      </div>
    );
  }

  const n = notification.data;
  const status = overallStatus(n.jobs);
  const byJob = new Map(
    (messages.data ?? []).filter((m) => m._notificationId === n._id).map((m) => [m._jobId, m]),
  );
  return (
    <div className="page activity-detail">
      {back}
      <div className="page-header activity-header">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {n.template?.name ?? 'Deleted workflow'}
          </h1>
          <p className="muted">Notification {n._id}</p>
        </div>
        <LiveBadge state={live} />
      </div>
      <dl className="card summary">
        <div>
          <dt>Status</dt>
          <dd>
            {/* Read again when a step moves: the socket refetches this page. */}
            <span aria-live="polite">
              <StatusBadge
                status={status}
                label={status === 'running' ? 'In progress' : statusLabel(status)}
              />
            </span>
          </dd>
        </div>
        <div>
          <dt>Subscriber</dt>
          <dd>{subscriberName(n)}</dd>
        </div>
        <div>
          <dt>Transaction ID</dt>
          <dd>
            <code>{n.transactionId}</code>
          </dd>
        </div>
        <div>
          <dt>Triggered</dt>
          <dd>
            <time dateTime={n.createdAt}>{formatTime(n.createdAt)}</time>
          </dd>
        </div>
      </dl>
      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">Steps</h2>
        {n.jobs.length === 0 ? (
          <p className="muted">No step has run yet.</p>
        ) : (
          <ol className="steps">
            {n.jobs.map((job, i) => (
              <Step
                key={job._id}
                job={job}
                position={i + 1}
                message={byJob.get(job._id)}
                messagesFailed={messages.isError}
              />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function Step({
  job,
  position,
  message,
  messagesFailed,
}: {
  job: ActivityJob;
  position: number;
  message: ActivityMessage | undefined;
  messagesFailed: boolean;
}) {
  const titleId = `step-${job._id}`;
  const name = job.step?.name;
  const delivers = ['in_app', 'email', 'sms', 'chat', 'push'].includes(job.type);
  // A step that has not run cannot have made its message yet.
  const waiting = ['pending', 'queued', 'running', 'delayed'].includes(job.status);
  return (
    <li className="card step" aria-labelledby={titleId} data-testid="activity-step">
      <div className="step-header">
        <h3 id={titleId}>
          {position}. {stepLabel(job.type)}
          {name && name !== stepLabel(job.type) ? `: ${name}` : ''}
        </h3>
        <dl className="step-statuses">
          <div>
            <dt>Step</dt>
            <dd>
              <StatusBadge status={job.status} />
            </dd>
          </div>
          {delivers && (
            <div>
              <dt>Message</dt>
              <dd>
                {message?.deliveryStatus ? (
                  <StatusBadge status={message.deliveryStatus} />
                ) : message ? (
                  <span className="muted">Created</span>
                ) : (
                  <span className="muted">
                    {messagesFailed ? 'Unknown' : waiting ? 'Not yet' : 'None'}
                  </span>
                )}
              </dd>
            </div>
          )}
          {job.providerId && (
            <div>
              <dt>Provider</dt>
              <dd>{job.providerId}</dd>
            </div>
          )}
        </dl>
      </div>
      {message?.errorText && <p className="field-error">{message.errorText}</p>}
      {job.executionDetails.length === 0 ? (
        <p className="muted">Nothing logged yet.</p>
      ) : (
        <ol className="timeline" aria-label={`Execution of step ${position}`}>
          {job.executionDetails.map((d) => (
            <TimelineEntry key={d._id} detail={d} />
          ))}
        </ol>
      )}
    </li>
  );
}

function TimelineEntry({ detail }: { detail: ExecutionDetail }) {
  return (
    <li className="timeline-entry" data-status={detail.status.toLowerCase()}>
      {/* As Novu's step timeline: what happened first, when and how under it. */}
      <p className="timeline-detail">{detail.detail}</p>
      <div className="timeline-line">
        <time dateTime={detail.createdAt}>{formatTime(detail.createdAt)}</time>
        <StatusBadge status={detail.status} />
        {detail.code !== null && <span className="muted">Code {detail.code}</span>}
        {detail.isRetry && <span className="muted">Retry</span>}
        {detail.source === 'Webhook' && <span className="muted">Provider webhook</span>}
      </div>
      {detail.raw !== null && (
        <details className="raw">
          <summary>{rawTitle(detail)}</summary>
          <pre>
            <code>{pretty(detail.raw)}</code>
          </pre>
        </details>
      )}
    </li>
  );
}

/** What the raw data is: a provider's answer to a send, its webhook's report, or Sino's own. */
function rawTitle(detail: ExecutionDetail): string {
  if (!detail.providerId) return 'Raw data';
  return detail.source === 'Webhook'
    ? `Report of ${detail.providerId}'s webhook`
    : `Answer of ${detail.providerId}`;
}

/** The raw JSON text indented; left as it is when it does not parse. */
function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}
