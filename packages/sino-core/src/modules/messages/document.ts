import type { ActorType, Channel } from '@sino/shared';
import type { DeliveryStatus, MessageCta } from '../../db/schema.js';
import type { Subscriber } from '../subscribers/repository.js';
import type { MessageRow } from './repository.js';

/** The recipient as the feed joins it (Novu populates these five fields). */
export interface MessageSubscriber {
  _id: string;
  firstName: string | null;
  lastName: string | null;
  avatar: string | null;
  subscriberId: string;
}

/**
 * The message's workflow as the feed populates it: Novu's `template` (`_id` and `tags`, a
 * subset of its `INotificationTemplate`), with `critical`, which the widget marks.
 */
export interface MessageTemplate {
  _id: string;
  tags: string[];
  critical: boolean;
}

/** A message as Novu 0.24 answers it (WIDGET-WIRE.md, "Message document fields"). */
export interface MessageDocument {
  _id: string;
  _templateId: string;
  _environmentId: string;
  _organizationId: string;
  _notificationId: string;
  _subscriberId: string;
  _jobId: string;
  _feedId: string | null;
  templateIdentifier: string;
  content: string;
  channel: Channel;
  seen: boolean;
  read: boolean;
  /** Absent until the message is first marked, as in Novu. */
  lastSeenDate?: string;
  lastReadDate?: string;
  cta: MessageCta;
  payload: Record<string, unknown>;
  transactionId: string;
  actor?: { type: ActorType; data: string | null };
  createdAt: string;
  updatedAt: string;
  subscriber?: MessageSubscriber;
  template?: MessageTemplate;
  /** Sino's additions, present only when set (a Novu client never sees them otherwise). */
  archivedAt?: string;
  snoozedUntil?: string;
  /** Email, SMS, chat and push: the subject, the provider, where the delivery stands. */
  subject?: string;
  providerId?: string;
  deliveryStatus?: DeliveryStatus;
  /** The last delivery failure's words (Novu's `errorText`). */
  errorText?: string;
}

export const messageSubscriber = (s: Subscriber): MessageSubscriber => ({
  _id: s.id,
  firstName: s.firstName,
  lastName: s.lastName,
  avatar: s.avatar,
  subscriberId: s.subscriberId,
});

/**
 * A message row in Novu's wire shape. The feed (and every widget answer carrying messages)
 * adds the joined recipient, the workflow's tags and critical flag, and, for a `user` actor,
 * the actor's avatar in `actor.data`.
 */
export function toMessageDocument(
  row: MessageRow,
  extras: {
    subscriber?: MessageSubscriber;
    actorAvatar?: string | null;
    template?: Omit<MessageTemplate, '_id'>;
  } = {},
): MessageDocument {
  const actor =
    row.actor && row.actor.type === 'user' && extras.actorAvatar !== undefined
      ? { type: row.actor.type, data: extras.actorAvatar }
      : row.actor;
  return {
    _id: row.id,
    _templateId: row.workflowId,
    _environmentId: row.environmentId,
    _organizationId: row.organizationId,
    _notificationId: row.notificationId,
    _subscriberId: row.subscriberId,
    _jobId: row.jobId,
    _feedId: row.feedId,
    templateIdentifier: row.templateIdentifier,
    content: row.content,
    channel: row.channel,
    seen: row.seen,
    read: row.read,
    ...(row.lastSeenDate && { lastSeenDate: row.lastSeenDate.toISOString() }),
    ...(row.lastReadDate && { lastReadDate: row.lastReadDate.toISOString() }),
    cta: row.cta,
    payload: row.payload,
    transactionId: row.transactionId,
    ...(actor && { actor: { type: actor.type, data: actor.data ?? null } }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(extras.subscriber && { subscriber: extras.subscriber }),
    ...(extras.template && { template: { _id: row.workflowId, ...extras.template } }),
    ...(row.archivedAt && { archivedAt: row.archivedAt.toISOString() }),
    ...(row.snoozedUntil && { snoozedUntil: row.snoozedUntil.toISOString() }),
    ...(row.subject !== null && { subject: row.subject }),
    ...(row.providerId && { providerId: row.providerId }),
    ...(row.deliveryStatus && { deliveryStatus: row.deliveryStatus }),
    ...(row.deliveryError && { errorText: row.deliveryError }),
  };
}
