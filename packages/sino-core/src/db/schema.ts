import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  char,
  check,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  ActorType,
  Channel,
  DigestType,
  IdentityProvider,
  JobStatus,
  MemberRole,
  StepType,
  TimeUnit,
  UserStatus,
} from '@sino/shared';

/** Every Sino table lives in the `sino` Postgres schema. */
export const sino = pgSchema('sino');

// Ids are 24-hex ObjectIds, as Novu's: clients and dashboards written for Novu expect them.
const id = () => char('id', { length: 24 }).primaryKey();
const ref = (name: string) => char(name, { length: 24 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true });

export interface Branding {
  logo?: string;
  color?: string;
  fontFamily?: string;
  fontColor?: string;
  contentBackground?: string;
  direction?: 'ltr' | 'rtl';
}

export const organizations = sino.table('organizations', {
  id: id(),
  name: text('name').notNull(),
  branding: jsonb('branding').$type<Branding>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * People who use the console. Their e-mail (lower-cased) is unique; an account that signs in
 * only through GitHub or Google has no password. Erasure deletes the row: audit entries keep
 * only its id.
 */
export const users = sino.table(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /** argon2id PHC string (@locadora/login); null for accounts without a password. */
    passwordHash: text('password_hash'),
    status: text('status').$type<UserStatus>().notNull().default('new'),
    emailVerifiedAt: at('email_verified_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email').on(t.email)],
);

/** A person's accounts at GitHub or Google, by the provider's own user id. */
export const userIdentities = sino.table(
  'user_identities',
  {
    provider: text('provider').$type<IdentityProvider>().notNull(),
    providerUserId: text('provider_user_id').notNull(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerUserId] }),
    index('user_identities_user').on(t.userId),
  ],
);

/** Who belongs to which organization, and as what. A person may belong to several. */
export const members = sino.table(
  'members',
  {
    organizationId: ref('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('members_user').on(t.userId),
  ],
);

/**
 * Console sessions: one per sign-in, renewed through its refresh token (kept only as its
 * SHA-256, rotated at every renewal); a revoked or expired one opens nothing, and the short
 * access tokens it issued stop with it.
 */
export const consoleSessions = sino.table(
  'console_sessions',
  {
    id: id(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshHash: char('refresh_hash', { length: 64 }).notNull(),
    /** Where the person works now (switched in the console); a renewed token opens the same. */
    organizationId: ref('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('console_sessions_refresh').on(t.refreshHash),
    index('console_sessions_user').on(t.userId),
  ],
);

/**
 * Single-use links of the console's mails: invitations, password resets, e-mail verifications.
 * Only the token's SHA-256 is kept; a token is bound to the address it was sent to, and using
 * it (one UPDATE that sets `used_at`) finds nothing a second time or after `expires_at`.
 */
export const accountTokens = sino.table(
  'account_tokens',
  {
    id: id(),
    purpose: text('purpose')
      .$type<'invitation' | 'password_reset' | 'email_verification'>()
      .notNull(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    /** The address the link was sent to (lower-cased); only it can use the token. */
    email: text('email').notNull(),
    /** Invitations: the organization and the role the invited person gets. */
    organizationId: ref('organization_id').references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    role: text('role').$type<MemberRole>(),
    /** Who invited (an erased inviter leaves the invitation without one). */
    invitedBy: ref('invited_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** Resets and verifications: the account they are for. */
    userId: ref('user_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: at('used_at'),
  },
  (t) => [
    uniqueIndex('account_tokens_hash').on(t.tokenHash),
    index('account_tokens_organization').on(t.organizationId, t.createdAt),
    index('account_tokens_user').on(t.userId, t.purpose, t.createdAt),
  ],
);

/** The console's failed sign-ins, per e-mail and per address (@locadora/login's throttle). */
export const consoleLoginAttempts = sino.table(
  'console_login_attempts',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
  },
  (t) => [index('console_login_attempts_end').on(t.windowEnd)],
);

/**
 * Requests that make Sino mail an address no one signed in gave (sign-up, password reset), per
 * e-mail and per client address, as the sign-in counts its failures: digests, never in clear.
 */
export const consoleMailRequests = sino.table(
  'console_mail_requests',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
  },
  (t) => [index('console_mail_requests_end').on(t.windowEnd)],
);

/**
 * What was done in an organization, by whom and when: sign-ins, API keys made, regenerated or
 * revoked, integration credentials changed, roles changed, invitations, promotions. Never a
 * secret: `details` holds names and ids only.
 */
export const auditLog = sino.table(
  'audit_log',
  {
    id: id(),
    organizationId: ref('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environmentId: ref('environment_id'),
    actorType: text('actor_type').$type<'user' | 'api_key' | 'system'>().notNull(),
    /** The user's id, or the API key's id. */
    actorId: text('actor_id'),
    action: text('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_organization').on(t.organizationId, t.createdAt, t.id)],
);

export const environments = sino.table(
  'environments',
  {
    id: id(),
    organizationId: ref('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The widget's `applicationIdentifier`: public, not a secret. */
    identifier: text('identifier').notNull(),
    /**
     * Novu's `_parentId`: Production names the Development environment it is promoted from;
     * Development, the root, names none.
     */
    parentId: ref('parent_id').references((): AnyPgColumn => environments.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('environments_identifier').on(t.identifier)],
);

/**
 * Server API keys. Requests are matched by the key's SHA-256 hash. The key itself is kept only
 * encrypted (AES-256-GCM): subscriber HMAC hashes are keyed by it, so the server must be able
 * to recover it, but a copy of the database alone does not give it away.
 */
export const apiKeys = sino.table(
  'api_keys',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    keyHash: char('key_hash', { length: 64 }).notNull(),
    keyCiphertext: text('key_ciphertext').notNull(),
    /** Last four characters, to tell keys apart in listings. */
    hint: text('hint').notNull(),
    /**
     * The person the key belongs to (Novu's `_userId`): who made or regenerated it, or the
     * organization's first admin for the keys a start made. A call with the key acts for them
     * where a person is needed (creating an organization).
     */
    userId: ref('user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /**
     * When the key stops opening its environment: now for a revoked key, later for a key a
     * regeneration replaced (its grace period, so what uses it can move to the new one).
     */
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_hash').on(t.keyHash),
    index('api_keys_environment').on(t.environmentId, t.createdAt),
  ],
);

export const subscribers = sino.table(
  'subscribers',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    /** The customer's own id for this person. */
    subscriberId: text('subscriber_id').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    phone: text('phone'),
    avatar: text('avatar'),
    locale: text('locale'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    /** Chat and push credentials per provider: `[{providerId, integrationIdentifier?, credentials}]`. */
    channels: jsonb('channels')
      .$type<SubscriberChannel[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isOnline: boolean('is_online').notNull().default(false),
    lastOnlineAt: at('last_online_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscribers_environment_subscriber').on(t.environmentId, t.subscriberId),
    index('subscribers_environment_created').on(t.environmentId, t.createdAt, t.id),
  ],
);

/**
 * Subscribers erased for good (`POST /v1/subscribers/:subscriberId/erase`): a tombstone per
 * environment, so that no session, trigger or identify brings the id back. Only a keyed hash of
 * the subscriberId is kept (src/modules/subscribers/tombstones.ts): enough to match the id when
 * it comes again, nothing to read it back from.
 */
export const erasedSubscribers = sino.table(
  'erased_subscribers',
  {
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** HMAC-SHA256 (hex) of the environment and the subscriberId. */
    subscriberKey: char('subscriber_key', { length: 64 }).notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.subscriberKey] })],
);

/**
 * Secrets Sino keeps for itself, sealed under the encryption key (src/secret-box.ts): what
 * must outlive a rotation of that key. The tombstones' key is one: what it hashed is gone, so
 * tombstones cannot be written again under another (src/modules/subscribers/tombstones.ts).
 */
export const serverSecrets = sino.table('server_secrets', {
  name: text('name').primaryKey(),
  sealed: text('sealed').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export interface SubscriberChannel {
  providerId: string;
  integrationIdentifier?: string;
  /** The integration the credentials were registered for (Novu's `_integrationId`). */
  _integrationId?: string;
  credentials: { webhookUrl?: string; channel?: string; deviceTokens?: string[] };
}

export const topics = sino.table(
  'topics',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('topics_environment_key').on(t.environmentId, t.key)],
);

export const topicSubscribers = sino.table(
  'topic_subscribers',
  {
    topicId: ref('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    subscriberId: ref('subscriber_id')
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.topicId, t.subscriberId] }),
    index('topic_subscribers_subscriber').on(t.subscriberId),
  ],
);

export const tenants = sino.table(
  'tenants',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    identifier: text('identifier').notNull(),
    name: text('name'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('tenants_environment_identifier').on(t.environmentId, t.identifier)],
);

export const feeds = sino.table(
  'feeds',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    identifier: text('identifier').notNull(),
    name: text('name').notNull(),
    /** In Production: the Development feed it was promoted from (decision 052). */
    parentId: ref('parent_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('feeds_environment_identifier').on(t.environmentId, t.identifier),
    index('feeds_parent').on(t.parentId),
  ],
);

/**
 * Workflow groups (Novu's notification groups): every workflow belongs to one. Each environment
 * starts with "General", the group of workflows created without naming one.
 */
export const notificationGroups = sino.table(
  'notification_groups',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    name: text('name').notNull(),
    /** In Production: the Development group it was promoted from (decision 052). */
    parentId: ref('parent_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('notification_groups_environment').on(t.environmentId, t.createdAt, t.id),
    index('notification_groups_parent').on(t.parentId),
  ],
);

/** A variable a layout reads (Novu's `ITemplateVariable`), with its default and whether required. */
export interface LayoutVariable {
  name: string;
  type: 'String' | 'Array' | 'Boolean';
  required: boolean;
  defaultValue?: unknown;
}

/**
 * Email layouts (Novu's `layouts`): HTML around an email step's content, which it places with
 * `{{{body}}}`. At most one live default per environment (the partial unique index; the service
 * keeps one there), identifiers unique among live layouts; deleted ones are kept, soft.
 */
export const layouts = sino.table(
  'layouts',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    name: text('name').notNull(),
    identifier: text('identifier').notNull(),
    description: text('description'),
    content: text('content').notNull(),
    variables: jsonb('variables')
      .$type<LayoutVariable[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isDefault: boolean('is_default').notNull().default(false),
    /** In Production: the Development layout it was promoted from (decision 052). */
    parentId: ref('parent_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('layouts_environment_identifier')
      .on(t.environmentId, t.identifier)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('layouts_environment_default')
      .on(t.environmentId)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
    index('layouts_environment').on(t.environmentId, t.createdAt, t.id),
    index('layouts_parent').on(t.parentId),
    check('layouts_default_is_live', sql`not (${t.isDefault} and ${t.deletedAt} is not null)`),
  ],
);

/** Default channel switches of a workflow (Novu's `preferenceSettings`). */
export type ChannelSwitches = Record<Channel, boolean>;

export const workflows = sino.table(
  'workflows',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    name: text('name').notNull(),
    /** The trigger name (`name` of POST /v1/events/trigger). */
    identifier: text('identifier').notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    /** Critical workflows cannot be turned off by subscribers. */
    critical: boolean('critical').notNull().default(false),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    preferenceSettings: jsonb('preference_settings').$type<ChannelSwitches>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    /**
     * The workflow's group. A group holding live workflows cannot be deleted; deleted
     * workflows lose theirs when it goes (null).
     */
    notificationGroupId: ref('notification_group_id').references(() => notificationGroups.id, {
      onDelete: 'set null',
    }),
    /** Defined in code (Locadora's workflows) rather than through the API. */
    origin: text('origin', { enum: ['api', 'code'] })
      .notNull()
      .default('api'),
    /** In Production: the Development workflow it was promoted from (decision 052). */
    parentId: ref('parent_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('workflows_environment_identifier')
      .on(t.environmentId, t.identifier)
      .where(sql`${t.deletedAt} is null`),
    index('workflows_notification_group').on(t.notificationGroupId),
    index('workflows_parent').on(t.parentId),
  ],
);

/**
 * A tenant's override of a workflow (Novu's workflow overrides): whether the workflow runs for
 * the tenant's triggers, and the channel switches standing for the workflow's defaults there.
 * One per workflow and tenant; it goes with either. A soft-deleted workflow's go with it too
 * (src/modules/workflows/repository.ts).
 */
export const workflowOverrides = sino.table(
  'workflow_overrides',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    workflowId: ref('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    tenantId: ref('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** False stops the workflow for the tenant's triggers; true runs it even when inactive. */
    active: boolean('active').notNull().default(false),
    /** Every channel said (those not given are on, as in Novu). */
    preferenceSettings: jsonb('preference_settings').$type<ChannelSwitches>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('workflow_overrides_workflow_tenant').on(t.workflowId, t.tenantId),
    // A tenant's deletion finds its overrides (the cascade).
    index('workflow_overrides_tenant').on(t.tenantId),
    // GET /v1/workflow-overrides: the environment's, newest first.
    index('workflow_overrides_environment_created').on(t.environmentId, t.createdAt, t.id),
  ],
);

export interface DelayMetadata {
  type: 'regular' | 'scheduled';
  amount?: number;
  unit?: TimeUnit;
  /** For `scheduled`: the payload key holding the ISO date to wait for. */
  delayPath?: string;
}

export interface DigestMetadata {
  type: DigestType;
  amount?: number;
  unit?: TimeUnit;
  /** Payload key whose value splits digests (Novu's `digestKey`). */
  digestKey?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: TimeUnit;
  /** For `timed`: when to send (Novu's `timed` options). */
  timed?: { atTime?: string; weekDays?: string[]; monthDays?: number[]; cronExpression?: string };
}

export interface StepTemplate {
  content?: string;
  subject?: string;
  title?: string;
  senderName?: string;
  preheader?: string;
  feedId?: string | null;
  cta?: {
    type: 'redirect';
    data?: { url?: string };
    action?: {
      buttons?: { type: 'primary' | 'secondary'; content: string; resultContent?: string }[];
    };
  };
  actor?: { type: ActorType; data?: string | null };
  /** Email steps: the layout (`layouts.id`) it renders in; none: the environment's default. */
  layoutId?: string;
}

/** One condition group of a step filter (Novu's `StepFilter`). */
export interface StepFilter {
  isNegated?: boolean;
  type?: string;
  value: 'AND' | 'OR';
  children: Record<string, unknown>[];
}

export const workflowSteps = sino.table(
  'workflow_steps',
  {
    id: id(),
    /** Novu's step `uuid`, referenced by `previousStep` filters. */
    uuid: text('uuid').notNull(),
    workflowId: ref('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type').$type<StepType>().notNull(),
    name: text('name'),
    active: boolean('active').notNull().default(true),
    shouldStopOnFail: boolean('should_stop_on_fail').notNull().default(false),
    filters: jsonb('filters')
      .$type<StepFilter[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    template: jsonb('template')
      .$type<StepTemplate>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    metadata: jsonb('metadata').$type<DelayMetadata | DigestMetadata>(),
  },
  (t) => [uniqueIndex('workflow_steps_workflow_position').on(t.workflowId, t.position)],
);

export const notifications = sino.table(
  'notifications',
  {
    id: id(),
    environmentId: ref('environment_id').notNull(),
    organizationId: ref('organization_id').notNull(),
    workflowId: ref('workflow_id').notNull(),
    subscriberId: ref('subscriber_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    payload: jsonb('payload')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    tenant: jsonb('tenant').$type<Record<string, unknown>>(),
    actorSubscriberId: ref('actor_subscriber_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_environment_transaction').on(t.environmentId, t.transactionId),
    index('notifications_environment_created').on(t.environmentId, t.createdAt),
    // The activity feed by subscriber.
    index('notifications_subscriber_created').on(t.subscriberId, t.createdAt),
  ],
);

/** A trigger's transactionId, unique per environment (the dedupe of the wire contract). */
export const transactions = sino.table(
  'transactions',
  {
    environmentId: ref('environment_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    workflowId: ref('workflow_id'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.environmentId, t.transactionId] })],
);

export const jobs = sino.table(
  'jobs',
  {
    id: id(),
    environmentId: ref('environment_id').notNull(),
    organizationId: ref('organization_id').notNull(),
    notificationId: ref('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    workflowId: ref('workflow_id').notNull(),
    subscriberId: ref('subscriber_id').notNull(),
    stepId: ref('step_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    type: text('type').$type<StepType | 'trigger'>().notNull(),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    payload: jsonb('payload')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    overrides: jsonb('overrides').$type<Record<string, unknown>>(),
    /**
     * The tenant the trigger named, as templates see it (`{{tenant.*}}`): its identifier, name
     * and data when the trigger came. Null when it named none.
     */
    tenant: jsonb('tenant').$type<Record<string, unknown>>(),
    /**
     * The channel switches of the tenant's override of the workflow (`workflow_overrides`) as
     * the trigger found it: they stand for the workflow's defaults. Null when there was none.
     */
    tenantPreferences: jsonb('tenant_preferences').$type<ChannelSwitches>(),
    /** For digest jobs: the events merged into this one. */
    digest: jsonb('digest').$type<{
      events: Record<string, unknown>[];
      digestKey?: string;
      digestValue?: string;
    }>(),
    /** When a delayed or digest job is due. */
    runAt: at('run_at'),
    /** Delivery attempts made so far (channel steps); a retry waits `delayed` until `runAt`. */
    attempts: integer('attempts').notNull().default(0),
    /** The queue's own job id, to cancel it. */
    queueJobId: text('queue_job_id'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('jobs_environment_transaction').on(t.environmentId, t.transactionId),
    index('jobs_notification').on(t.notificationId),
    index('jobs_digest_open')
      .on(t.environmentId, t.subscriberId, t.stepId)
      .where(sql`${t.type} = 'digest' and ${t.status} = 'delayed'`),
  ],
);

export interface MessageCta {
  type: 'redirect';
  data: { url?: string };
  action?: {
    status?: 'pending' | 'done';
    buttons?: { type: 'primary' | 'secondary'; content: string; resultContent?: string }[];
    result?: { type?: 'primary' | 'secondary'; payload?: Record<string, unknown> };
  };
}

/**
 * A message is in the inbox (feed and counts) when it is not deleted, not archived and not
 * snoozed. Written out in full, not as a generated column: adding a stored generated column
 * rewrites the whole table (decision 019).
 */
export const inInboxOf = (t: {
  deleted: AnyPgColumn;
  archivedAt: AnyPgColumn;
  snoozedUntil: AnyPgColumn;
}) => sql`not ${t.deleted} and ${t.archivedAt} is null and ${t.snoozedUntil} is null`;

export const messages = sino.table(
  'messages',
  {
    id: id(),
    environmentId: ref('environment_id').notNull(),
    organizationId: ref('organization_id').notNull(),
    notificationId: ref('notification_id').notNull(),
    subscriberId: ref('subscriber_id')
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    workflowId: ref('workflow_id').notNull(),
    templateIdentifier: text('template_identifier').notNull(),
    jobId: ref('job_id').notNull(),
    stepId: ref('step_id').notNull(),
    feedId: ref('feed_id'),
    channel: text('channel').$type<Channel>().notNull(),
    /** Compiled content: HTML for in-app, the body for the other channels. */
    content: text('content').notNull(),
    subject: text('subject'),
    payload: jsonb('payload')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    cta: jsonb('cta')
      .$type<MessageCta>()
      .notNull()
      .default(sql`'{"type":"redirect","data":{}}'::jsonb`),
    actor: jsonb('actor').$type<{ type: ActorType; data: string | null }>(),
    transactionId: text('transaction_id').notNull(),
    seen: boolean('seen').notNull().default(false),
    read: boolean('read').notNull().default(false),
    lastSeenDate: at('last_seen_date'),
    lastReadDate: at('last_read_date'),
    deleted: boolean('deleted').notNull().default(false),
    /** When the subscriber archived it (out of the inbox until unarchived); null otherwise. */
    archivedAt: at('archived_at'),
    /**
     * Email, SMS, chat and push only: where the delivery stands (`queued` until a provider
     * accepts it, `sent`, then `delivered` or `bounced` from the provider's webhooks, or
     * `failed`); null for in-app messages.
     */
    deliveryStatus: text('delivery_status').$type<DeliveryStatus>(),
    /** The integration that accepted (or last tried) the message, and its provider. */
    integrationId: ref('integration_id'),
    providerId: text('provider_id'),
    /** The provider's own id of the message: its delivery webhooks name it. */
    providerMessageId: text('provider_message_id'),
    /** The last failure's words (the provider's answer, never a credential). */
    deliveryError: text('delivery_error'),
    /** Out of the inbox until this time, when it comes back unread; null when not snoozed. */
    snoozedUntil: at('snoozed_until'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The feed and the counts read only a subscriber's in-app messages in the inbox (live,
    // neither archived nor snoozed), newest first. The repository writes the same predicate
    // literally (`inInbox`), so the planner uses these indexes and counts index-only.
    index('messages_subscriber_feed')
      .on(t.subscriberId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.channel} = 'in_app' and ${inInboxOf(t)}`),
    index('messages_subscriber_unseen')
      .on(t.subscriberId, t.feedId)
      .where(sql`${t.channel} = 'in_app' and ${inInboxOf(t)} and not ${t.seen}`),
    index('messages_subscriber_unread')
      .on(t.subscriberId, t.feedId)
      .where(sql`${t.channel} = 'in_app' and ${inInboxOf(t)} and not ${t.read}`),
    // The archive, newest archived first (only archived rows: small).
    index('messages_subscriber_archived')
      .on(t.subscriberId, t.archivedAt.desc(), t.id.desc())
      .where(sql`${t.channel} = 'in_app' and not ${t.deleted} and ${t.archivedAt} is not null`),
    // Snoozed messages, soonest back first (only snoozed rows: small).
    index('messages_subscriber_snoozed')
      .on(t.subscriberId, t.snoozedUntil, t.id.desc())
      .where(sql`${t.channel} = 'in_app' and not ${t.deleted} and ${t.snoozedUntil} is not null`),
    index('messages_environment_transaction').on(t.environmentId, t.transactionId),
    // A step filter on a previous step's message (read, seen) finds it within its notification;
    // without this each such filter read the whole table.
    index('messages_notification').on(t.notificationId),
    // A job sends one message: a job run again after a crash (at-least-once) finds it sent.
    uniqueIndex('messages_job').on(t.jobId),
    // Delivery webhooks find their message by the provider's id.
    index('messages_provider_message')
      .on(t.providerId, t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
  ],
);

/** A subscriber's switches: per workflow, or global when `workflowId` is null. */
export const subscriberPreferences = sino.table(
  'subscriber_preferences',
  {
    id: id(),
    environmentId: ref('environment_id').notNull(),
    subscriberId: ref('subscriber_id')
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    workflowId: ref('workflow_id'),
    enabled: boolean('enabled').notNull().default(true),
    /** Only the channels the subscriber changed; the rest follow the workflow's defaults. */
    channels: jsonb('channels')
      .$type<Partial<ChannelSwitches>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriber_preferences_workflow')
      .on(t.subscriberId, t.workflowId)
      .where(sql`${t.workflowId} is not null`),
    uniqueIndex('subscriber_preferences_global')
      .on(t.subscriberId)
      .where(sql`${t.workflowId} is null`),
  ],
);

export const integrations = sino.table(
  'integrations',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    providerId: text('provider_id').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    name: text('name').notNull(),
    identifier: text('identifier').notNull(),
    active: boolean('active').notNull().default(false),
    primary: boolean('primary').notNull().default(false),
    /** In-app only: session initialize requires the subscriber's HMAC hash. */
    hmac: boolean('hmac').notNull().default(false),
    /** Order of failover within the channel after the primary: higher first (Novu's `priority`). */
    priority: integer('priority').notNull().default(0),
    /** Provider credentials, AES-256-GCM encrypted; never returned in full. */
    credentialsCiphertext: text('credentials_ciphertext'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('integrations_environment_identifier')
      .on(t.environmentId, t.identifier)
      .where(sql`${t.deletedAt} is null`),
    index('integrations_environment_channel').on(t.environmentId, t.channel),
  ],
);

/** What happened at each step of each job, with the wire contract's numeric codes. */
export const executionDetails = sino.table(
  'execution_details',
  {
    id: id(),
    environmentId: ref('environment_id').notNull(),
    organizationId: ref('organization_id').notNull(),
    notificationId: ref('notification_id').notNull(),
    jobId: ref('job_id'),
    subscriberId: ref('subscriber_id'),
    transactionId: text('transaction_id').notNull(),
    stepId: ref('step_id'),
    channel: text('channel').$type<StepType | 'trigger'>(),
    /** The wire contract's numeric code, when the event has one (1007, 3005, ...). */
    code: integer('code'),
    /** What happened, in words: "Message created", "Step skipped: filter not matched", ... */
    detail: text('detail').notNull(),
    status: text('status', {
      enum: ['Success', 'Warning', 'Failed', 'Pending', 'Queued'],
    }).notNull(),
    source: text('source', { enum: ['Internal', 'Payload', 'Webhook', 'Credentials'] })
      .notNull()
      .default('Internal'),
    isRetry: boolean('is_retry').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    raw: jsonb('raw').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('execution_details_environment_transaction').on(t.environmentId, t.transactionId),
    index('execution_details_job').on(t.jobId),
    // The activity feed and GET /v1/execution-details read a notification's log.
    index('execution_details_notification').on(t.notificationId),
  ],
);

/** Where an email, SMS, chat or push message stands with its provider. */
export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'bounced', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The built-in sandbox providers' mailbox ("Novu Email", "Novu SMS"): what they deliver stays
 * here, listed by the API, so a fresh install sends email and SMS end to end with no account.
 */
export const sandboxOutbox = sino.table(
  'sandbox_outbox',
  {
    id: id(),
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    /** Sino's message this delivers. */
    messageId: ref('message_id').notNull(),
    channel: text('channel').$type<'email' | 'sms'>().notNull(),
    to: jsonb('to').$type<string[]>().notNull(),
    from: text('from'),
    subject: text('subject'),
    /** The email's HTML, or the SMS text. */
    content: text('content').notNull(),
    /** The email's plain-text part. */
    text: text('text'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_outbox_environment_created').on(
      t.environmentId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    // A message delivered again (at-least-once) lands once.
    uniqueIndex('sandbox_outbox_message').on(t.messageId),
  ],
);

/**
 * Nonces of provider webhook signatures that do not cover the body (Plivo's), each taken once:
 * a captured signature replayed is refused. Kept until the per-message callback URL they came
 * to is no longer read (`expires_at`), so a nonce is remembered for as long as its signature
 * could be accepted.
 */
export const webhookNonces = sino.table(
  'webhook_nonces',
  {
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.environmentId, t.providerId, t.nonce] }),
    index('webhook_nonces_expires').on(t.expiresAt),
  ],
);

/** Answers remembered for 24 h per `Idempotency-Key`. */
export const idempotencyKeys = sino.table(
  'idempotency_keys',
  {
    environmentId: ref('environment_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: char('request_hash', { length: 64 }).notNull(),
    statusCode: integer('status_code'),
    body: text('body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.environmentId, t.key] }),
    index('idempotency_keys_created').on(t.createdAt),
  ],
);

/**
 * The durable job queue when there is no Redis (src/queue/database.ts, decision 016): one row
 * per job of every named queue. A job waits (`waiting`, due from `start_after`), is held by one
 * process (`active`, for as long as that process renews `locked_until`), then is kept
 * `completed` or `failed` until `keep_until` so that its id (a dedupe key) stays taken. The
 * fetch, completion and maintenance statements are functions of migration 0002.
 */
export const queueJobs = sino.table(
  'queue_jobs',
  {
    queue: text('queue').notNull(),
    /** Random, or derived from the job's dedupe key (src/queue/options.ts). */
    id: uuid('id').notNull(),
    data: jsonb('data'),
    state: text('state')
      .$type<'waiting' | 'active' | 'completed' | 'failed'>()
      .notNull()
      .default('waiting'),
    /** Due time: the enqueue's delay, or a retry's backoff. */
    startAfter: at('start_after').notNull().defaultNow(),
    /** Attempts started so far, this one included while active. */
    attempts: integer('attempts').notNull().default(0),
    retryLimit: integer('retry_limit').notNull(),
    backoffMs: bigint('backoff_ms', { mode: 'number' }).notNull().default(0),
    backoffExponential: boolean('backoff_exponential').notNull().default(false),
    /** The lease of an active job: taken again by any process once it lapses. */
    lockedUntil: at('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    /** A finished job is deleted after this (RETENTION in src/queue/port.ts). */
    keepUntil: at('keep_until'),
  },
  (t) => [
    primaryKey({ columns: [t.queue, t.id] }),
    // The fetch's order: it reads the few due rows it takes, whatever waits behind them.
    index('queue_jobs_due')
      .on(t.queue, t.startAfter, t.id)
      .where(sql`${t.state} = 'waiting'`),
    index('queue_jobs_lease')
      .on(t.queue, t.lockedUntil)
      .where(sql`${t.state} = 'active'`),
    index('queue_jobs_expiry')
      .on(t.queue, t.keepUntil)
      .where(sql`${t.state} in ('completed', 'failed')`),
    check('queue_jobs_state', sql`${t.state} in ('waiting', 'active', 'completed', 'failed')`),
  ],
);

/** What can be promoted from Development to Production (Novu's `ChangeEntityTypeEnum` values). */
export type ChangeEntityType = 'NotificationTemplate' | 'NotificationGroup' | 'Layout' | 'Feed';

/**
 * Promotion (Novu's changes, decision 052). A write in a Development environment leaves one
 * pending change per entity (updated by later writes) holding the entity's state then and its
 * difference from Production's; applying it copies that state to Production and keeps what
 * Production had (`previous`), so the promotion can be rolled back.
 */
export const changes = sino.table(
  'changes',
  {
    id: id(),
    /** The Development environment the change was made in. */
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    organizationId: ref('organization_id').notNull(),
    entityType: text('entity_type').$type<ChangeEntityType>().notNull(),
    /** The Development entity's id. */
    entityId: ref('entity_id').notNull(),
    /** Who made it: a person, or the owner of the API key used (null: nobody known). */
    creatorId: ref('creator_id'),
    /** The entity's state in Development (null: deleted), in Development's ids. */
    snapshot: jsonb('snapshot').$type<Record<string, unknown> | null>(),
    /** Production's state when the change was last written or applied, the same way. */
    previous: jsonb('previous').$type<Record<string, unknown> | null>(),
    /** The difference from `previous` to `snapshot` (Novu's `change`). */
    diff: jsonb('diff').$type<unknown[]>().notNull(),
    /** Novu's `enabled`: applied. */
    enabled: boolean('enabled').notNull().default(false),
    appliedAt: at('applied_at'),
    appliedBy: ref('applied_by'),
    rolledBackAt: at('rolled_back_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One pending change per entity: later writes update it.
    uniqueIndex('changes_pending_entity')
      .on(t.environmentId, t.entityType, t.entityId)
      .where(sql`not ${t.enabled}`),
    index('changes_environment').on(t.environmentId, t.enabled, t.createdAt, t.id),
    index('changes_entity').on(t.entityType, t.entityId, t.appliedAt),
  ],
);

/**
 * Delivery analytics (decision 055): per environment, hour, channel and provider, counters
 * that outcomes add to (`sent = sent + excluded.sent`), so any number of nodes write them
 * without reading first. `latency` is a histogram of the time from a notification's creation
 * to its delivery, in the fixed buckets of `modules/analytics/histogram.ts`, summed element by
 * element. Rows older than the retention are dropped by an hourly task.
 */
export const deliveryStats = sino.table(
  'delivery_stats',
  {
    environmentId: ref('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** The start of the hour (UTC) the outcomes happened in. */
    hour: at('hour').notNull(),
    channel: text('channel').$type<Channel>().notNull(),
    providerId: text('provider_id').notNull(),
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    bounced: integer('bounced').notNull().default(0),
    failovers: integer('failovers').notNull().default(0),
    retries: integer('retries').notNull().default(0),
    latency: integer('latency')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
  },
  (t) => [
    primaryKey({ columns: [t.environmentId, t.hour, t.channel, t.providerId] }),
    index('delivery_stats_hour').on(t.hour),
  ],
);
