// What the activity routes answer (GET /v1/notifications and /v1/notifications/:id, Novu's
// ActivityNotificationResponseDto), as far as the console reads it.

export type JobStatus =
  | 'pending'
  | 'queued'
  | 'running'
  | 'completed'
  | 'failed'
  | 'delayed'
  | 'canceled'
  | 'merged'
  | 'skipped';

export type StepKind =
  'in_app' | 'email' | 'sms' | 'chat' | 'push' | 'digest' | 'delay' | 'trigger';

export interface ExecutionDetail {
  _id: string;
  _jobId: string | null;
  status: 'Success' | 'Warning' | 'Failed' | 'Pending' | 'Queued';
  source: string;
  detail: string;
  code: number | null;
  providerId?: string;
  isRetry: boolean;
  /** JSON text, as Novu stores it. */
  raw: string | null;
  createdAt: string;
}

export interface ActivityJob {
  _id: string;
  type: StepKind;
  status: JobStatus;
  providerId?: string;
  step?: { _id: string; name: string | null };
  executionDetails: ExecutionDetail[];
  createdAt: string;
  updatedAt: string;
}

export interface ActivityNotification {
  _id: string;
  transactionId: string;
  createdAt: string;
  _templateId: string;
  subscriber?: {
    subscriberId: string;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
  };
  template?: { _id: string; name: string };
  jobs: ActivityJob[];
}

export interface ActivityPage {
  data: ActivityNotification[];
  hasMore: boolean;
  pageSize: number;
  page: number;
}

/** A message the steps made (GET /v1/messages), for its delivery status. */
export interface ActivityMessage {
  _id: string;
  _jobId: string;
  _notificationId: string;
  channel: string;
  deliveryStatus?: 'queued' | 'sent' | 'delivered' | 'bounced' | 'failed';
  errorText?: string;
}

export const JOB_STATUSES: readonly JobStatus[] = [
  'pending',
  'queued',
  'running',
  'delayed',
  'completed',
  'failed',
  'canceled',
  'merged',
  'skipped',
];

export const CHANNELS = [
  { value: 'in_app', label: 'In-app' },
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
  { value: 'chat', label: 'Chat' },
  { value: 'push', label: 'Push' },
] as const;

const STEP_LABELS: Record<StepKind, string> = {
  in_app: 'In-app',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
  digest: 'Digest',
  delay: 'Delay',
  trigger: 'Trigger',
};
export const stepLabel = (kind: StepKind): string => STEP_LABELS[kind] ?? kind;

/** A job status in words, capitalised ("completed" -> "Completed"). */
export const statusLabel = (status: string): string =>
  status.charAt(0).toUpperCase() + status.slice(1);

const FINAL: readonly JobStatus[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/** One word for a whole notification: any failed step fails it; running until every step ends. */
export function overallStatus(jobs: ActivityJob[]): 'failed' | 'completed' | 'running' {
  if (jobs.some((j) => j.status === 'failed')) return 'failed';
  if (jobs.length > 0 && jobs.every((j) => FINAL.includes(j.status))) return 'completed';
  return 'running';
}

export function subscriberName(n: ActivityNotification): string {
  const s = n.subscriber;
  if (!s) return 'Deleted subscriber';
  const name = [s.firstName, s.lastName].filter(Boolean).join(' ');
  return name ? `${name} (${s.subscriberId})` : s.subscriberId;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
export const formatTime = (iso: string): string => dateTime.format(new Date(iso));
