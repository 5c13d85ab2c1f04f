import type { Channel } from '@sino/shared';
import { badRequest, notFound } from '../../errors.js';
import type { Subscriber, SubscriberRepository } from '../subscribers/repository.js';
import { templateConfiguration } from '../workflows/present.js';
import type { WorkflowWithSteps } from '../workflows/repository.js';
import type { WorkflowService } from '../workflows/service.js';
import type { PreferenceRepository } from './repository.js';
import {
  globalPreferenceView,
  resolveChannel,
  workflowPreferenceView,
  type ChannelDecision,
  type PreferenceRow,
} from './resolve.js';

/** PATCH of one workflow's preference: a channel switch and/or the whole workflow. */
export interface WorkflowPreferenceChange {
  channel?: { type: Channel; enabled: boolean } | undefined;
  enabled?: boolean | undefined;
}

/** PATCH of the global preference: the whole switch and/or some channels. */
export interface GlobalPreferenceChange {
  enabled?: boolean | undefined;
  preferences?: { type: Channel; enabled: boolean }[] | undefined;
}

/**
 * Subscribers' preferences, shared by the widget (the token's subscriber) and the server API
 * (a subscriber found by its subscriberId in the key's environment).
 */
export function createPreferenceService(deps: {
  repo: PreferenceRepository;
  workflows: WorkflowService;
  subscribers: SubscriberRepository;
}) {
  const { repo } = deps;

  const answer = (w: WorkflowWithSteps, row: PreferenceRow | null | undefined) => ({
    template: templateConfiguration(w),
    preference: workflowPreferenceView(
      { ...w.workflow, steps: w.steps },
      row && { enabled: row.enabled, channels: row.channels },
    ),
  });

  const globalAnswer = (row: PreferenceRow | null | undefined) => ({
    preference: globalPreferenceView(row),
  });

  return {
    /** The subscriber of the environment with that subscriberId (server API), or 404. */
    async subscriber(environmentId: string, subscriberId: string): Promise<Subscriber> {
      const subscriber = await deps.subscribers.bySubscriberId(environmentId, subscriberId);
      if (!subscriber) throw notFound('Subscriber not found');
      return subscriber;
    },

    /** Every active workflow of the subscriber's environment, critical ones included. */
    async list(subscriber: Subscriber) {
      const workflows = await deps.workflows.activeWorkflows(subscriber.environmentId);
      const rows = await repo.forWorkflows(
        subscriber.id,
        workflows.map((w) => w.workflow.id),
      );
      return workflows.map((w) => answer(w, rows.get(w.workflow.id)));
    },

    /**
     * Changes one workflow's preference. A critical workflow cannot be turned off by its
     * subscribers: the change is not stored and the answer shows it still on.
     */
    async changeWorkflow(
      subscriber: Subscriber,
      workflowId: string,
      change: WorkflowPreferenceChange,
    ) {
      if (change.channel === undefined && change.enabled === undefined) {
        throw badRequest('In order to make an update you need to provide channel or enabled');
      }
      const workflow = await deps.workflows.byId(subscriber.environmentId, workflowId);
      if (!workflow) throw notFound(`Workflow with id ${workflowId} not found`);
      if (workflow.workflow.critical) {
        return answer(workflow, await repo.forWorkflow(subscriber.id, workflowId));
      }
      const row = await repo.changeWorkflow(
        {
          environmentId: subscriber.environmentId,
          subscriberId: subscriber.id,
          workflowId: workflow.workflow.id,
        },
        {
          enabled: change.enabled,
          ...(change.channel && { channels: { [change.channel.type]: change.channel.enabled } }),
        },
      );
      return answer(workflow, row);
    },

    async global(subscriber: Subscriber) {
      return globalAnswer(await repo.global(subscriber.id));
    },

    /** Changes the global preference; with nothing to change, answers it as it is. */
    async changeGlobal(subscriber: Subscriber, change: GlobalPreferenceChange) {
      const channels = Object.fromEntries(
        (change.preferences ?? []).map((p) => [p.type, p.enabled]),
      ) as Partial<Record<Channel, boolean>>;
      if (change.enabled === undefined && Object.keys(channels).length === 0) {
        return globalAnswer(await repo.global(subscriber.id));
      }
      const row = await repo.changeGlobal(
        { environmentId: subscriber.environmentId, subscriberId: subscriber.id },
        { enabled: change.enabled, channels },
      );
      return globalAnswer(row);
    },

    /**
     * Whether a channel step of the workflow may deliver to the subscriber (internal `_id`),
     * and why (for the engine's execution details).
     */
    async decide(
      subscriberId: string,
      workflow: {
        id: string;
        critical: boolean;
        preferenceSettings: Partial<Record<Channel, boolean>> | null;
      },
      channel: Channel,
    ): Promise<ChannelDecision> {
      if (workflow.critical) return resolveChannel({ workflow, channel });
      const rows = await repo.forDelivery(subscriberId, workflow.id);
      return resolveChannel({ workflow, channel, ...rows });
    },
  };
}

export type PreferenceService = ReturnType<typeof createPreferenceService>;
