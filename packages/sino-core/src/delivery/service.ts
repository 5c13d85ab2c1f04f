import {
  DeliveryError,
  redact,
  type ChatMessage,
  type EmailMessage,
  type MessageOf,
  type PushMessage,
  type SmsMessage,
} from '@sino/providers';
import { EXECUTION_CODES, type Channel } from '@sino/shared';
import type { DeliveryOutcome, DeliveryPort, RenderedStep } from '../engine/ports.js';
import { subscriberView } from '../engine/engine.js';
import type { Integration, IntegrationRepository } from '../modules/integrations/repository.js';
import { credentialText, type CredentialValues } from '../modules/integrations/credentials.js';
import type { IntegrationCache } from './integration-cache.js';
import type { Subscriber } from '../modules/subscribers/repository.js';
import type { ErrorLog } from '../errors.js';
import { isUnopenable } from '../secret-box.js';
import { attachmentsOf, plainTextOf, withPreheader } from './content.js';
import type { CallbackUrls } from './callbacks.js';
import type { ProviderDirectory } from './directory.js';
import type { DeliveryAttempt, DeliveryRepository } from './repository.js';
import { groupCommit } from '../batching.js';
import { SANDBOX_SENDER, isSandboxProvider } from './sandbox.js';
import { noMetrics, type SinoMetrics } from '../observability/metrics.js';
import { noDeliveryStats, type DeliveryStats } from '../modules/analytics/recorder.js';
import { SpanKind, SpanStatusCode, inSpan } from '../observability/tracing.js';
import type { TriggerOverrides } from '../modules/events/overrides.js';
import {
  chatWebhookOverride,
  chosenIntegration,
  distinctAddresses,
  emailOverridesFor,
  given,
  pushOverridesFor,
  readOverrides,
  smsOverridesFor,
  textAsHtml,
} from './overrides.js';

type DeliveryChannel = Exclude<Channel, 'in_app'>;

/** The error code of a failed attempt, per channel (the wire contract's codes). */
const ERROR_CODES: Record<DeliveryChannel, number> = {
  email: EXECUTION_CODES.MAIL_PROVIDER_DELIVERY_ERROR,
  sms: EXECUTION_CODES.SMS_ERROR,
  chat: EXECUTION_CODES.CHAT_ERROR,
  push: EXECUTION_CODES.PUSH_ERROR,
};

/** An integration the subscriber can be reached through, and where. */
interface Route {
  integration: Integration;
  /** Chat: the webhook URL and channel; push: the device tokens. */
  webhookUrl?: string | undefined;
  chatChannel?: string | undefined;
  deviceTokens?: string[] | undefined;
}

/**
 * The delivery port of the engine: tries the channel's active integrations in order (primary
 * first, then by priority), failing over to the next at once when one fails, unless the
 * failure is the recipient's own (no integration can do better). Each try is an execution
 * detail with the provider's answer; credentials never appear in one.
 */
export function createDeliveryService(deps: {
  integrations: IntegrationRepository;
  repo: DeliveryRepository;
  directory: ProviderDirectory;
  integrationCache: IntegrationCache;
  /** Each SMS's own status callback URL (providers that take one: Plivo). */
  callbacks: CallbackUrls;
  /** Where an adapter's unexpected failure is told, with its stack, to the operator. */
  log: ErrorLog;
  /** Counts each provider's answers and each failover (none when absent). */
  metrics?: Pick<SinoMetrics, 'delivery' | 'failover'> | undefined;
  /** The environment's delivery analytics (none when absent). */
  stats?: DeliveryStats | undefined;
}): DeliveryPort {
  const metrics = deps.metrics ?? noMetrics;
  const stats = deps.stats ?? noDeliveryStats;
  /**
   * The integrations that can reach this subscriber, or why none can. A chat webhook URL or
   * push device tokens the trigger gave replace the subscriber's own, for the providers the
   * subscriber registered with (as in Novu 0.24).
   */
  function routesOf(
    channel: DeliveryChannel,
    subscriber: Subscriber,
    integrations: Integration[],
    overrides: TriggerOverrides,
    payload: Record<string, unknown>,
  ): Route[] | { code: number; detail: string } {
    if (channel === 'email')
      return subscriber.email
        ? integrations.map((integration) => ({ integration }))
        : {
            code: EXECUTION_CODES.SUBSCRIBER_MISSING_EMAIL,
            detail: 'Subscriber has no email address',
          };
    if (channel === 'sms')
      return subscriber.phone
        ? integrations.map((integration) => ({ integration }))
        : {
            code: EXECUTION_CODES.SUBSCRIBER_MISSING_PHONE,
            detail: 'Subscriber has no phone number',
          };
    // Chat and push reach the subscriber through what they registered for each provider.
    const routes: Route[] = [];
    const webhookUrl = channel === 'chat' ? chatWebhookOverride(overrides, payload) : undefined;
    for (const integration of integrations) {
      const entry = subscriber.channels.find(
        (c) =>
          c.providerId === integration.providerId &&
          (c._integrationId === undefined || c._integrationId === integration.id),
      );
      if (channel === 'chat' && entry && (webhookUrl ?? entry.credentials.webhookUrl))
        routes.push({
          integration,
          webhookUrl: webhookUrl ?? entry.credentials.webhookUrl,
          chatChannel: entry.credentials.channel,
        });
      if (channel === 'push' && entry?.credentials.deviceTokens?.length)
        routes.push({
          integration,
          deviceTokens:
            pushOverridesFor(overrides, integration.providerId).deviceTokens ??
            entry.credentials.deviceTokens,
        });
    }
    if (routes.length > 0) return routes;
    return channel === 'chat'
      ? {
          code: EXECUTION_CODES.SUBSCRIBER_MISSING_CHAT_CHANNEL_ID,
          detail: 'Subscriber has no chat webhook URL for any active chat integration',
        }
      : {
          code: EXECUTION_CODES.SUBSCRIBER_MISSING_PUSH,
          detail: 'Subscriber has no device token for any active push integration',
        };
  }

  /** The provider-ready message of the channel for one route. */
  async function messageFor(
    channel: DeliveryChannel,
    route: Route,
    credentials: CredentialValues,
    input: {
      id: string;
      organizationId: string;
      environmentId: string;
      subscriber: Subscriber;
      rendered: RenderedStep;
      payload: Record<string, unknown>;
      overrides: TriggerOverrides;
    },
    attachments: EmailMessage['attachments'],
  ): Promise<MessageOf[DeliveryChannel]> {
    const { rendered, subscriber, overrides } = input;
    const { providerId } = route.integration;
    const text = (key: string) => credentialText(credentials, key);
    switch (channel) {
      case 'email': {
        const sandbox = isSandboxProvider(providerId);
        const o = emailOverridesFor(overrides, providerId);
        // More recipients after the subscriber; copies and blind copies, each address once.
        const to = distinctAddresses([subscriber.email!, ...(o.to ?? [])]);
        const cc = distinctAddresses(o.cc ?? [], to);
        const bcc = distinctAddresses(o.bcc ?? [], [...to, ...cc]);
        // The trigger's HTML, or its text, replaces the step's content (and its preheader).
        const html = given(o.html) ?? (given(o.text) && textAsHtml(o.text!));
        const message: EmailMessage = {
          id: input.id,
          to,
          ...(cc.length > 0 && { cc }),
          ...(bcc.length > 0 && { bcc }),
          from: {
            email: given(o.from) ?? (sandbox ? undefined : text('from')) ?? SANDBOX_SENDER,
            name: given(o.senderName) ?? rendered.senderName ?? text('senderName'),
          },
          ...(given(o.replyTo) && { replyTo: o.replyTo! }),
          subject: given(o.subject) ?? rendered.subject ?? '',
          preheader: html ? undefined : rendered.preheader,
          html: html ?? withPreheader(rendered.content, rendered.preheader),
          text: given(o.text) ?? (await plainTextOf(html ?? rendered.content)),
          attachments,
          ...(o.customData && { customData: o.customData }),
          ...(given(o.ipPoolName) && { ipPoolName: o.ipPoolName! }),
        };
        return message;
      }
      case 'sms': {
        const statusCallbackUrl = deps.callbacks.urlFor(
          {
            organizationId: input.organizationId,
            environmentId: input.environmentId,
            channel,
            providerId,
          },
          input.id,
        );
        const o = smsOverridesFor(overrides, providerId);
        return {
          id: input.id,
          to: given(o.to) ?? subscriber.phone!,
          from: given(o.from) ?? text('from'),
          content: given(o.content) ?? rendered.content,
          ...(statusCallbackUrl && { statusCallbackUrl }),
          ...(o.customData && { customData: o.customData }),
        } satisfies SmsMessage;
      }
      case 'chat':
        return {
          id: input.id,
          webhookUrl: route.webhookUrl!,
          channel: route.chatChannel,
          content: rendered.content,
        } satisfies ChatMessage;
      case 'push': {
        const { attachments: _files, ...data } = input.payload;
        const { options } = pushOverridesFor(overrides, providerId);
        return {
          id: input.id,
          target: route.deviceTokens!,
          title: rendered.title ?? rendered.subject ?? '',
          content: rendered.content,
          data,
          subscriber: subscriberView(subscriber),
          ...(options && { overrides: options }),
        } satisfies PushMessage;
      }
    }
  }

  /** Any failure as a delivery error: an adapter's own bug is permanent (retrying repeats it). */
  function asDeliveryError(error: unknown, providerId: string): DeliveryError {
    if (error instanceof DeliveryError) return error;
    deps.log.error({ err: error, providerId }, 'provider adapter failed unexpectedly');
    return new DeliveryError('permanent', 'The provider adapter failed unexpectedly');
  }

  // Concurrent deliveries write their messages together: one statement per set (decision 036).
  const saveAttempt = groupCommit(
    async (attempts: readonly DeliveryAttempt[]) => {
      await deps.repo.saveAttempts(attempts);
      return attempts.map(() => undefined);
    },
    { retryEach: true },
  );

  /** Active integrations per environment and channel, kept briefly: every delivery reads them. */
  const activeOf = (environmentId: string, channel: DeliveryChannel) =>
    deps.integrationCache.get(`${environmentId}:${channel}`, () =>
      deps.integrations.activeOfChannel(environmentId, channel),
    );

  return {
    async deliver({ job, channel, subscriber, templateIdentifier, rendered, record, lastAttempt }) {
      const { overrides, valid } = readOverrides(job.overrides);
      if (!valid && job.attempts === 0)
        await record({
          detail: 'The trigger overrides are not valid and were not applied',
          status: 'Warning',
          source: 'Internal',
        });
      const active = await activeOf(job.environmentId, channel);
      const chosen = chosenIntegration(overrides, channel);
      let integrations: Integration[];
      if (chosen) {
        // The trigger chose the integration: that one only, sandbox or not, no failover.
        const one = active.find((i) => i.identifier === chosen);
        if (!one)
          return {
            kind: 'no-integration',
            detail: `No active ${channel} integration has the identifier "${chosen}"`,
          };
        integrations = [one];
      } else {
        if (active.length === 0) return { kind: 'no-integration' };
        // The sandbox delivers only where no real provider is active: as a failover target it
        // would "send" a message nobody receives and call it sent.
        const real = active.filter((i) => !isSandboxProvider(i.providerId));
        integrations = real.length > 0 ? real : active;
      }
      const routes = routesOf(channel, subscriber, integrations, overrides, job.payload);
      if (!Array.isArray(routes)) return { kind: 'skipped', ...routes };

      let attachments: EmailMessage['attachments'];
      if (channel === 'email') {
        const found = attachmentsOf(job.payload);
        attachments = found.attachments;
        if (found.problems.length > 0 && job.attempts === 0)
          await record({
            detail: `Attachments left out: ${found.problems.join('; ')}`,
            status: 'Warning',
            source: 'Internal',
          });
      }
      const save = (
        integration: Integration,
        outcome: {
          status: 'queued' | 'sent' | 'failed';
          providerMessageId?: string;
          error?: string;
        },
      ) =>
        saveAttempt({
          job,
          channel,
          templateIdentifier,
          content: rendered.content,
          subject: rendered.subject,
          integrationId: integration.id,
          providerId: integration.providerId,
          ...outcome,
        });

      const attempt = job.attempts + 1;
      const outcome = (kind: 'sent' | 'failed' | 'failover' | 'retry', integration: Integration) =>
        stats.count({
          environmentId: job.environmentId,
          channel,
          providerId: integration.providerId,
          kind,
          ...(kind === 'sent' && { latencyMs: Date.now() - job.createdAt.getTime() }),
        });
      let retryable = false;
      let retryAfterMs: number | undefined;
      for (const [index, route] of routes.entries()) {
        const { integration } = route;
        const via = {
          providerId: integration.providerId,
          integrationIdentifier: integration.identifier,
          attempt,
        };
        let ready: ReturnType<ProviderDirectory['adapterOf']>;
        let unopened: Error | undefined;
        try {
          ready = deps.directory.adapterOf(integration);
        } catch (error) {
          // Credentials no configured encryption key opens (a key removed too soon): this
          // integration fails, naming itself; another may deliver, and a retry may find the
          // key restored (decision 038).
          if (!isUnopenable(error)) throw error;
          unopened = error;
        }
        const started = performance.now();
        // One span and one count per provider asked, whatever it answered.
        const answer = await inSpan(
          'sino.deliver',
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'sino.channel': channel,
              'sino.provider': integration.providerId,
              'sino.delivery.attempt': attempt,
            },
          },
          async (span) => {
            if (unopened) return new DeliveryError('retryable', unopened.message);
            if (!ready)
              return new DeliveryError(
                'permanent',
                `Sino has no adapter for ${integration.providerId}`,
              );
            try {
              const payload = await messageFor(
                channel,
                route,
                ready.credentials,
                // The job's id names the message: the same on every attempt.
                {
                  id: job.id,
                  organizationId: job.organizationId,
                  environmentId: job.environmentId,
                  subscriber,
                  rendered,
                  payload: job.payload,
                  overrides,
                },
                attachments,
              );
              return await ready.adapter.send(payload as never);
            } catch (error) {
              const failure = asDeliveryError(error, integration.providerId);
              span.setAttribute('sino.delivery.error_class', failure.kind);
              span.setStatus({ code: SpanStatusCode.ERROR, message: failure.kind });
              return failure;
            }
          },
        );
        const seconds = (performance.now() - started) / 1000;
        if (!(answer instanceof DeliveryError)) {
          metrics.delivery(channel, integration.providerId, { outcome: 'sent' }, seconds);
          await Promise.all([
            save(integration, {
              status: 'sent',
              ...(answer.id && { providerMessageId: answer.id }),
            }),
            outcome('sent', integration),
          ]);
          return {
            kind: 'sent',
            detail: {
              detail: `Message sent through ${integration.name} (${integration.providerId})`,
              status: 'Success',
              raw: { ...via, providerMessageId: answer.id ?? null, status: answer.status ?? null },
            },
          } satisfies DeliveryOutcome;
        }
        const failure = answer;
        metrics.delivery(
          channel,
          integration.providerId,
          { outcome: 'failed', errorClass: failure.kind },
          seconds,
        );
        const words = redact(failure.message, ready?.credentials ?? {});
        await record({
          code: ERROR_CODES[channel],
          detail: `${integration.name} (${integration.providerId}) failed: ${words}`,
          status: 'Failed',
          source: failure.status === 401 || failure.status === 403 ? 'Credentials' : 'Internal',
          raw: { ...via, kind: failure.kind, status: failure.status ?? null, error: words },
        });
        // The recipient's own problem: no other provider can do better, nor a retry.
        if (failure.kind === 'recipient') {
          await Promise.all([
            save(integration, { status: 'failed', error: words }),
            outcome('failed', integration),
          ]);
          return { kind: 'failed', retryable: false };
        }
        if (failure.kind === 'retryable') {
          retryable = true;
          if (failure.retryAfterMs !== undefined)
            retryAfterMs = Math.max(retryAfterMs ?? 0, failure.retryAfterMs);
        }
        const next = routes[index + 1];
        if (next) {
          metrics.failover(channel, integration.providerId, next.integration.providerId);
          await Promise.all([
            outcome('failover', integration),
            record({
              detail: `Failing over to ${next.integration.name} (${next.integration.providerId})`,
              status: 'Warning',
              raw: { from: integration.providerId, to: next.integration.providerId, attempt },
            }),
          ]);
          continue;
        }
        // Every integration failed: queued for the next attempt, or failed for good.
        const final = !retryable || lastAttempt;
        await Promise.all([
          save(integration, { status: final ? 'failed' : 'queued', error: words }),
          outcome(final ? 'failed' : 'retry', integration),
        ]);
      }
      return { kind: 'failed', retryable, retryAfterMs };
    },
  };
}
