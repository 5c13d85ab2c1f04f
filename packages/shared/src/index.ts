/**
 * Sino's vocabulary, shared by the service, its clients and Locadora. The string values are
 * Novu 0.24's, since they travel on the wire (docs/decisions/009).
 */

/** The days a timed digest may go out on (Novu 0.24's names), Monday first. */
export const WEEK_DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** Delivery channels. */
export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Step types of a workflow: a channel, or one of the flow-control steps. */
export const STEP_TYPES = [...CHANNELS, 'digest', 'delay'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const isChannel = (t: string): t is Channel => (CHANNELS as readonly string[]).includes(t);

/** Job statuses, as Novu's `JobStatusEnum`. */
export const JOB_STATUSES = [
  'pending',
  'queued',
  'running',
  'completed',
  'failed',
  'delayed',
  'canceled',
  'merged',
  'skipped',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Digest kinds: a fixed window, a window that backs off when events keep coming, a schedule. */
export const DIGEST_TYPES = ['regular', 'backoff', 'timed'] as const;
export type DigestType = (typeof DIGEST_TYPES)[number];

/** Units of delay and digest windows. */
export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

/** Step filter operators, as Novu's `FilterPartTypeEnum`/`BuilderFieldOperator`. */
export const FILTER_OPERATORS = [
  'EQUAL',
  'NOT_EQUAL',
  'LARGER',
  'SMALLER',
  'LARGER_EQUAL',
  'SMALLER_EQUAL',
  'IN',
  'NOT_IN',
  'LIKE',
  'NOT_LIKE',
  'BETWEEN',
  'NOT_BETWEEN',
  'IS_DEFINED',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Where a filter condition reads its value. */
export const FILTER_SOURCES = [
  'payload',
  'subscriber',
  'tenant',
  'webhook',
  'isOnline',
  'isOnlineInLast',
  'previousStep',
] as const;
export type FilterSource = (typeof FILTER_SOURCES)[number];

/** Trigger answer statuses (`data.status` of POST /v1/events/trigger). */
export const TRIGGER_STATUSES = [
  'processed',
  'trigger_not_active',
  'no_workflow_steps_defined',
  'no_workflow_active_steps_defined',
  'no_tenant_found',
  'subscriber_id_missing',
  'error',
] as const;
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number];

/**
 * Why a trigger was refused, in words a program reads: `code` beside Novu's `status: 'error'`
 * in a bulk trigger's answer, and in the error body of a single trigger (Sino's addition; Novu
 * 0.24 answers only the message, which its clients ignore the rest of).
 */
export const TRIGGER_ERROR_CODES = [
  /** The transactionId was used already: the event was accepted before. */
  'transaction_id_not_unique',
  /** No workflow of the environment has that trigger identifier. */
  'workflow_not_found',
  /** Sino failed by itself; nothing was accepted: send it again. */
  'internal_error',
] as const;
export type TriggerErrorCode = (typeof TRIGGER_ERROR_CODES)[number];

/** Execution detail codes of the wire contract, by name. */
export const EXECUTION_CODES = {
  TRIGGER_RECEIVED: 1000,
  TEMPLATE_NOT_ACTIVE: 1001,
  TEMPLATE_NOT_FOUND: 1002,
  SMS_ERROR: 1004,
  CHAT_ERROR: 1005,
  MISSING_SMS_PROVIDER: 1006,
  IN_APP_MESSAGE_CREATED: 1007,
  MAIL_PROVIDER_DELIVERY_ERROR: 1008,
  TRIGGER_PROCESSED: 1009,
  PUSH_ERROR: 1010,
  MISSING_PUSH_PROVIDER: 1011,
  SUBSCRIBER_NOT_FOUND: 3001,
  SUBSCRIBER_MISSING_EMAIL: 3002,
  SUBSCRIBER_MISSING_PHONE: 3003,
  SUBSCRIBER_ID_MISSING: 3004,
  MISSING_EMAIL_INTEGRATION: 3005,
  SUBSCRIBER_MISSING_CHAT_CHANNEL_ID: 3006,
  MISSING_SMS_INTEGRATION: 3007,
  MISSING_CHAT_INTEGRATION: 3008,
  MISSING_PUSH_INTEGRATION: 3009,
  SUBSCRIBER_MISSING_PUSH: 3010,
  MISSING_PAYLOAD_VARIABLE: 3011,
  AVATAR_ACTOR_ERROR: 3012,
  SYNTAX_ERROR_IN_EMAIL_EDITOR: 3013,
  TOPIC_ERROR: 4001,
  TOPIC_SUBSCRIBERS_ERROR: 4002,
} as const;
export type ExecutionCode = (typeof EXECUTION_CODES)[keyof typeof EXECUTION_CODES];

/** The "missing integration" code of each external channel. */
export const MISSING_INTEGRATION_CODE: Record<Exclude<Channel, 'in_app'>, ExecutionCode> = {
  email: EXECUTION_CODES.MISSING_EMAIL_INTEGRATION,
  sms: EXECUTION_CODES.MISSING_SMS_INTEGRATION,
  chat: EXECUTION_CODES.MISSING_CHAT_INTEGRATION,
  push: EXECUTION_CODES.MISSING_PUSH_INTEGRATION,
};

/** Actor of an in-app message. */
export const ACTOR_TYPES = ['none', 'user', 'system_icon', 'system_custom'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** Where a preference comes from (the `overrides[].source` of the widget's preferences). */
export const PREFERENCE_SOURCES = ['template', 'workflowOverride', 'subscriber'] as const;
export type PreferenceSource = (typeof PREFERENCE_SOURCES)[number];

/** Roles of an organization's members (Novu's `MemberRoleEnum`). */
export const MEMBER_ROLES = ['admin', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * A console user's status: `invited` (an invitation names the address, no account signed in
 * yet), `new` (signed up, e-mail not verified), `active`.
 */
export const USER_STATUSES = ['new', 'active', 'invited'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Identity providers a console user may sign in with, besides e-mail and password. */
export const IDENTITY_PROVIDERS = ['github', 'google'] as const;
export type IdentityProvider = (typeof IDENTITY_PROVIDERS)[number];
