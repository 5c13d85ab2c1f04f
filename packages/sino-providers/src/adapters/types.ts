import type { Channel } from '@sino/shared';
import type { EgressPolicy } from '../egress/policy.js';

/** An integration's credentials as stored (decrypted): the catalogue's keys. */
export type Credentials = Readonly<Record<string, unknown>>;

/** A file given with a trigger (`attachments` of Novu's trigger), already decoded. */
export interface Attachment {
  name: string;
  mime: string;
  content: Buffer;
}

export interface EmailAddress {
  email: string;
  name?: string | undefined;
}

/** An email ready to go: rendered, its sender resolved (step over integration). */
export interface EmailMessage {
  to: string[];
  /** Copies (a trigger's `overrides.email.cc`): none of them also in `to`. */
  cc?: string[] | undefined;
  /** Blind copies (`overrides.email.bcc`): none of them also in `to` or `cc`. */
  bcc?: string[] | undefined;
  from: EmailAddress;
  replyTo?: string | undefined;
  subject: string;
  /** Shown by mail clients beside the subject; already hidden at the top of `html`. */
  preheader?: string | undefined;
  html: string;
  /** The plain-text part, rendered from the same template. */
  text: string;
  attachments?: Attachment[] | undefined;
  /**
   * The trigger's `customData` override, for the providers that take it as Novu 0.24 passes
   * it (SendGrid's custom arguments and template, MailerSend's and Brevo's templates, the
   * Email Webhook's body); the others ignore it.
   */
  customData?: Readonly<Record<string, unknown>> | undefined;
  /** The trigger's `ipPoolName` override (SendGrid), replacing the integration's. */
  ipPoolName?: string | undefined;
  /** Stable id of this delivery (Sino's message id): providers that accept one get it. */
  id: string;
}

export interface SmsMessage {
  to: string;
  /** The integration's sender (number or alphanumeric id). */
  from?: string | undefined;
  content: string;
  id: string;
  /**
   * Where the provider should post this message's delivery statuses: Sino's webhook URL for
   * this one message, for providers that take a callback URL with each message (Plivo's
   * `url`). Absent when Sino does not know its public URL.
   */
  statusCallbackUrl?: string | undefined;
  /** The trigger's `customData` override, for the providers that take it (Gupshup's DLT ids). */
  customData?: Readonly<Record<string, unknown>> | undefined;
}

export interface ChatMessage {
  /**
   * The subscriber's webhook URL for this provider (subscriber channel credentials), or the
   * trigger's override of it: either is reached under the egress rule.
   */
  webhookUrl: string;
  /** Slack-style channel name, when the subscriber gave one. */
  channel?: string | undefined;
  content: string;
  id: string;
}

export interface PushMessage {
  /** The subscriber's device tokens for this provider (subscriber channel credentials). */
  target: string[];
  title: string;
  content: string;
  /** Extra data for the app (the step's `data` rendered, or the trigger's payload). */
  data: Record<string, unknown>;
  /** The subscriber as templates see it; some providers (Push Webhook) forward it. */
  subscriber: Record<string, unknown>;
  /**
   * What the trigger gave under this provider's id (`overrides.fcm`, `overrides.apns`, ...),
   * without `deviceTokens` (already in `target`): each adapter applies it to its own request
   * as Novu 0.24's provider does (title, body, sound, badge, data, the provider's own options).
   */
  overrides?: Readonly<Record<string, unknown>> | undefined;
  id: string;
}

export interface MessageOf {
  email: EmailMessage;
  sms: SmsMessage;
  chat: ChatMessage;
  push: PushMessage;
}

export type DeliveryChannel = Exclude<Channel, 'in_app'>;

/** What a provider answered to an accepted message. */
export interface SendResult {
  /** The provider's own id of the message, used to match its delivery webhooks. */
  id?: string | undefined;
  /** HTTP status (or SMTP reply code) of the accepting answer. */
  status?: number | undefined;
}

/** A delivery status reported by a provider's webhook. */
export type DeliveryState = 'sent' | 'delivered' | 'bounced' | 'failed';

export interface DeliveryEvent {
  /** The provider's message id, as `SendResult.id` gave it. */
  providerMessageId: string;
  state: DeliveryState;
  /** When the provider saw it, if it says. */
  at?: Date | undefined;
  /** The provider's words for it ("550 mailbox unavailable"). */
  reason?: string | undefined;
}

/** A webhook call as received: the raw body is needed for signature checks. */
export interface WebhookRequest {
  /** The full URL the provider called (Twilio signs it). */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: Buffer;
}

/** Outcome of checking an integration's credentials against the provider. */
export interface CheckResult {
  ok: boolean;
  /** English, safe to show: never a credential. */
  message: string;
}

/** What an adapter is built from. */
export interface AdapterContext {
  credentials: Credentials;
  /**
   * Replaces the provider's documented base URL (a region, a proxy, a local peer in tests).
   * Adapters whose base URL is a credential (`baseUrl`) let the credential win.
   */
  baseUrl?: string | undefined;
  /** A request not answered within this many milliseconds is abandoned as retryable. */
  timeoutMs: number;
  /**
   * Extra certificate authorities (PEM) trusted for this provider's TLS: a private relay's
   * own CA, or a test peer's. Public providers need none.
   */
  tlsCa?: string | undefined;
  /**
   * Where the adapter may connect (decision 024): every socket it opens is checked against it,
   * except to the operator's trusted URLs. Absent: public addresses only.
   */
  egress?: EgressPolicy | undefined;
  /**
   * Set by `defineAdapter`, never by callers: the integration's own credentials (a base URL, a
   * host, a webhook URL), not the provider's documented host nor the operator's, decide where
   * this adapter connects. Its failures then name their class only (refused, timeout, HTTP
   * status), never a word of what answered.
   */
  callerChosen?: boolean | undefined;
}

/** One provider's delivery code. */
export interface ProviderAdapter<C extends DeliveryChannel = DeliveryChannel> {
  send(message: MessageOf[C]): Promise<SendResult>;
  /**
   * Asks the provider whether the credentials work, without sending anything where the
   * provider allows it. Absent where the provider offers no such call.
   */
  check?(): Promise<CheckResult>;
  /**
   * Reads a delivery webhook: checks its signature (throws `WebhookRejected` when it does not
   * hold) and answers the events in it. Absent where the provider sends none.
   */
  parseWebhook?(request: WebhookRequest): DeliveryEvent[];
  /**
   * Present where a webhook's signature does not cover its body (Plivo's covers the URL and a
   * nonce): the nonce of the request's signature. A captured signature could carry any event,
   * so Sino reads these webhooks only at the URL it gave with one message
   * (`statusCallbackUrl`), for that message, and each nonce once.
   */
  webhookNonce?(request: WebhookRequest): string | undefined;
  /** Releases what the adapter keeps open between sends (an SMTP pool, an HTTP/2 session). */
  close?(): Promise<void>;
}

/** A provider's adapter factory, as the registry lists it. */
export interface AdapterDefinition<C extends DeliveryChannel = DeliveryChannel> {
  providerId: string;
  channel: C;
  create(context: AdapterContext): ProviderAdapter<C>;
}
