import type { SubscriberChannel } from '../../db/schema.js';
import { badRequest, conflict, isStoreUnavailable, notFound, type ErrorLog } from '../../errors.js';
import type {
  CredentialsIntegration,
  Subscriber,
  SubscriberProfile,
  SubscriberRepository,
  SubscriberUpsert,
} from './repository.js';

/** The environment a server API call acts in (the API key's). */
export interface Scope {
  id: string;
  organizationId: string;
}

/** Credentials of one chat or push provider, as the server API receives them. */
export interface ChannelInput {
  providerId: string;
  integrationIdentifier?: string | undefined;
  credentials: {
    webhookUrl?: string | null | undefined;
    channel?: string | null | undefined;
    deviceTokens?: string[] | null | undefined;
  };
}

export interface SubscriberInput extends SubscriberProfile {
  channels?: ChannelInput[] | undefined;
}

/**
 * How new device tokens meet the stored ones: `replace` (PUT, idempotent) keeps only the given
 * tokens, `append` (PATCH, and profile writes) adds them to the stored ones. Both drop repeats.
 */
export type TokenMode = 'replace' | 'append';

export interface BulkResult {
  created: { subscriberId: string }[];
  updated: { subscriberId: string }[];
  failed: { subscriberId: string; message: string }[];
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

const missingIntegration = (environmentId: string, providerId: string) =>
  `Subscribers environment (${environmentId}) do not have active ${providerId} integration.`;

/** The integration credentials go to: the one named, else the newest active of the provider. */
function pickIntegration(
  candidates: CredentialsIntegration[],
  input: ChannelInput,
): CredentialsIntegration | undefined {
  return candidates.find(
    (i) =>
      i.active &&
      i.providerId === input.providerId &&
      (input.integrationIdentifier === undefined || i.identifier === input.integrationIdentifier),
  );
}

/** Only the credential fields given; tokens without repeats. */
function normalizedCredentials(
  input: ChannelInput['credentials'],
): SubscriberChannel['credentials'] {
  return {
    ...(input.webhookUrl != null && { webhookUrl: input.webhookUrl }),
    ...(input.channel != null && { channel: input.channel }),
    ...(input.deviceTokens != null && { deviceTokens: unique(input.deviceTokens) }),
  };
}

// A row the database refused: nothing of it was written.
const UNEXPECTED_FAILURE =
  'The subscriber could not be saved because of an internal error; send it again';

/**
 * The subscriber's channels with one provider's credentials set: the entry of that provider and
 * integration is updated (given fields win, absent ones are kept), or a new entry is added.
 */
export function mergeChannel(
  channels: SubscriberChannel[],
  integration: CredentialsIntegration,
  input: ChannelInput,
  mode: TokenMode,
): SubscriberChannel[] {
  const credentials = normalizedCredentials(input.credentials);
  const index = channels.findIndex(
    (c) =>
      c.providerId === input.providerId &&
      (c._integrationId === integration.id ||
        (c._integrationId === undefined &&
          (c.integrationIdentifier ?? integration.identifier) === integration.identifier)),
  );
  const entry: SubscriberChannel = {
    providerId: input.providerId,
    integrationIdentifier: integration.identifier,
    _integrationId: integration.id,
    credentials,
  };
  if (index === -1) return [...channels, entry];
  const existing = channels[index]!;
  let deviceTokens = existing.credentials.deviceTokens;
  if (credentials.deviceTokens) {
    // An empty list clears the tokens in both modes (Novu's way to unset them).
    deviceTokens =
      mode === 'append' && credentials.deviceTokens.length > 0
        ? unique([...(existing.credentials.deviceTokens ?? []), ...credentials.deviceTokens])
        : credentials.deviceTokens;
  }
  entry.credentials = {
    ...existing.credentials,
    ...credentials,
    ...(deviceTokens && { deviceTokens }),
  };
  return channels.map((c, i) => (i === index ? entry : c));
}

/** Subscribers of the server API (`/v1/subscribers`): rules, never HTTP. */
export function createSubscriberService(deps: { subscribers: SubscriberRepository }) {
  const repo = deps.subscribers;

  const notFoundError = (subscriberId: string) =>
    notFound(`Subscriber not found for id ${subscriberId}`);
  const erasedMessage = (subscriberId: string) =>
    `Subscriber ${subscriberId} was erased and cannot be created again`;

  /** The integration of each channel, or the message of the first one without any. */
  async function resolveChannels(
    environmentId: string,
    channels: ChannelInput[],
  ): Promise<{ resolved: [CredentialsIntegration, ChannelInput][] } | { error: string }> {
    const candidates = await repo.integrationsOfProvider(
      environmentId,
      unique(channels.map((c) => c.providerId)),
    );
    const resolved: [CredentialsIntegration, ChannelInput][] = [];
    for (const channel of channels) {
      const integration = pickIntegration(candidates, channel);
      if (!integration) return { error: missingIntegration(environmentId, channel.providerId) };
      resolved.push([integration, channel]);
    }
    return { resolved };
  }

  async function applyChannels(
    environmentId: string,
    subscriberId: string,
    resolved: [CredentialsIntegration, ChannelInput][],
    mode: TokenMode,
  ): Promise<Subscriber | undefined> {
    return repo.updateChannels(environmentId, subscriberId, (channels) =>
      resolved.reduce(
        (acc, [integration, input]) => mergeChannel(acc, integration, input, mode),
        channels,
      ),
    );
  }

  return {
    page: (scope: Scope, page: number, limit: number, search?: string) =>
      repo.page(scope.id, page, limit, search),

    async get(scope: Scope, subscriberId: string): Promise<Subscriber> {
      const subscriber = await repo.bySubscriberId(scope.id, subscriberId);
      if (!subscriber) throw notFoundError(subscriberId);
      return subscriber;
    },

    /** POST /v1/subscribers: creates the subscriber, or updates the given fields. */
    async createOrUpdate(
      scope: Scope,
      subscriberId: string,
      input: SubscriberInput,
    ): Promise<Subscriber> {
      const { channels, ...profile } = input;
      // Credentials are checked before anything is written: a refusal leaves no trace.
      const resolution = channels?.length ? await resolveChannels(scope.id, channels) : undefined;
      if (resolution && 'error' in resolution) throw badRequest(resolution.error);
      const subscriber = await repo.upsert(
        { environmentId: scope.id, organizationId: scope.organizationId, subscriberId },
        profile,
      );
      if (!subscriber) throw conflict(erasedMessage(subscriberId));
      if (!resolution) return subscriber;
      return (
        (await applyChannels(scope.id, subscriberId, resolution.resolved, 'append')) ?? subscriber
      );
    },

    /** PUT /v1/subscribers/:subscriberId: the given fields of an existing subscriber. */
    async update(scope: Scope, subscriberId: string, input: SubscriberInput): Promise<Subscriber> {
      const { channels, ...profile } = input;
      const resolution = channels?.length ? await resolveChannels(scope.id, channels) : undefined;
      if (resolution && 'error' in resolution) throw badRequest(resolution.error);
      const subscriber = await repo.update(scope.id, subscriberId, profile);
      if (!subscriber) throw notFoundError(subscriberId);
      if (!resolution) return subscriber;
      return (
        (await applyChannels(scope.id, subscriberId, resolution.resolved, 'append')) ?? subscriber
      );
    },

    async remove(scope: Scope, subscriberId: string): Promise<void> {
      // Messages, preferences and topic memberships go with it (foreign keys cascade).
      if (!(await repo.remove(scope.id, subscriberId))) throw notFoundError(subscriberId);
    },

    /**
     * POST /v1/subscribers/bulk: creates or updates each subscriber. A subscriber whose
     * credentials name a provider without an active integration, whose id was erased, or whose
     * row the database refuses, is reported in `failed`; the others are written. A refusal of the database is
     * logged and answered in general words (its message is for the operator: it may name
     * tables, constraints, internals).
     */
    async bulk(
      scope: Scope,
      items: (SubscriberInput & { subscriberId: string })[],
      log: ErrorLog,
    ): Promise<BulkResult> {
      const result: BulkResult = { created: [], updated: [], failed: [] };
      const candidates = await repo.integrationsOfProvider(
        scope.id,
        unique(items.flatMap((i) => i.channels ?? []).map((c) => c.providerId)),
      );
      // A subscriberId given twice is written once, its later fields winning, as two
      // successive upserts would leave it; the repeat counts as an update.
      const merged = new Map<string, SubscriberUpsert>();
      const order: string[] = [];
      for (const { subscriberId, channels, ...profile } of items) {
        let resolvedChannels: SubscriberChannel[] | undefined;
        if (channels) {
          resolvedChannels = [];
          const missing = channels.find((c) => !pickIntegration(candidates, c));
          if (missing) {
            result.failed.push({
              subscriberId,
              message: missingIntegration(scope.id, missing.providerId),
            });
            continue;
          }
          for (const channel of channels) {
            resolvedChannels = mergeChannel(
              resolvedChannels,
              pickIntegration(candidates, channel)!,
              channel,
              'append',
            );
          }
        }
        order.push(subscriberId);
        const previous = merged.get(subscriberId);
        merged.set(subscriberId, {
          subscriberId,
          profile: { ...previous?.profile, ...profile },
          channels: resolvedChannels ?? previous?.channels,
        });
      }
      // Erased subscribers are not created again.
      const erased = await repo.erasedAmong(scope.id, [...merged.keys()]);
      for (const subscriberId of erased) {
        merged.delete(subscriberId);
        result.failed.push({ subscriberId, message: erasedMessage(subscriberId) });
      }
      const ids = { environmentId: scope.id, organizationId: scope.organizationId };
      const rows = [...merged.values()];
      let written: { subscriberId: string; created: boolean }[];
      try {
        written = await repo.upsertMany(ids, rows);
      } catch (error) {
        // A database that does not answer fails the request (503), not each row in turn.
        if (isStoreUnavailable(error)) throw error;
        // One bad row fails the statement: write them one by one to tell which.
        written = [];
        for (const row of rows) {
          try {
            written.push(...(await repo.upsertMany(ids, [row])));
          } catch (error) {
            if (isStoreUnavailable(error)) throw error;
            log.error(
              { err: error, subscriberId: row.subscriberId },
              'bulk subscribers: a row failed',
            );
            result.failed.push({ subscriberId: row.subscriberId, message: UNEXPECTED_FAILURE });
          }
        }
      }
      // One erased while this bulk ran: its new row goes again.
      for (const w of written.filter((w) => w.created)) {
        if (!(await repo.removeIfErased(scope.id, w.subscriberId))) continue;
        written = written.filter((other) => other.subscriberId !== w.subscriberId);
        result.failed.push({
          subscriberId: w.subscriberId,
          message: erasedMessage(w.subscriberId),
        });
      }
      const created = new Set(written.filter((w) => w.created).map((w) => w.subscriberId));
      const ok = new Set(written.map((w) => w.subscriberId));
      const reported = new Set<string>();
      for (const subscriberId of order) {
        if (!ok.has(subscriberId)) continue;
        const first = !reported.has(subscriberId);
        reported.add(subscriberId);
        (first && created.has(subscriberId) ? result.created : result.updated).push({
          subscriberId,
        });
      }
      return result;
    },

    /**
     * PUT (replace the device tokens) or PATCH (append to them)
     * /v1/subscribers/:subscriberId/credentials.
     */
    async setCredentials(
      scope: Scope,
      subscriberId: string,
      input: ChannelInput,
      mode: TokenMode,
    ): Promise<Subscriber> {
      if (!(await repo.bySubscriberId(scope.id, subscriberId))) throw notFoundError(subscriberId);
      const resolution = await resolveChannels(scope.id, [input]);
      if ('error' in resolution) throw badRequest(resolution.error);
      const subscriber = await applyChannels(scope.id, subscriberId, resolution.resolved, mode);
      if (!subscriber) throw notFoundError(subscriberId);
      return subscriber;
    },

    /** DELETE /v1/subscribers/:subscriberId/credentials/:providerId. */
    async deleteCredentials(scope: Scope, subscriberId: string, providerId: string): Promise<void> {
      if (!(await repo.bySubscriberId(scope.id, subscriberId))) throw notFoundError(subscriberId);
      const known = await repo.integrationsOfProvider(scope.id, [providerId]);
      if (known.length === 0) {
        throw notFound(
          `Subscribers environment (${scope.id}) do not have ${providerId} integration.`,
        );
      }
      const subscriber = await repo.updateChannels(scope.id, subscriberId, (channels) =>
        channels.filter((c) => c.providerId !== providerId),
      );
      if (!subscriber) throw notFoundError(subscriberId);
    },

    /** PATCH /v1/subscribers/:subscriberId/online-status: going offline sets lastOnlineAt. */
    async setOnlineStatus(
      scope: Scope,
      subscriberId: string,
      isOnline: boolean,
    ): Promise<Subscriber> {
      const subscriber = await repo.bySubscriberId(scope.id, subscriberId);
      if (!subscriber) throw notFoundError(subscriberId);
      const updated = await repo.setOnline(subscriber.id, isOnline);
      if (!updated) throw notFoundError(subscriberId);
      return updated;
    },
  };
}

export type SubscriberService = ReturnType<typeof createSubscriberService>;
