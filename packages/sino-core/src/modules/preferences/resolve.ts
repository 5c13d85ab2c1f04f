import { CHANNELS, type Channel } from '@sino/shared';

/**
 * Preference rules, without IO: the engine asks whether a channel step may deliver, the widget
 * and the server API show what a subscriber sees. Workflow defaults are Novu's
 * `preferenceSettings`; the subscriber's rows are `subscriber_preferences` (one per workflow,
 * one global).
 */

export type ChannelSwitches = Partial<Record<Channel, boolean>>;

export interface PreferenceWorkflow {
  critical: boolean;
  /** The workflow's defaults; a channel it does not name is on. */
  preferenceSettings: ChannelSwitches | null | undefined;
  steps: readonly { type: string; active: boolean }[];
}

/** A subscriber's row: the whole switch, and only the channels the subscriber changed. */
export interface PreferenceRow {
  enabled: boolean;
  channels: ChannelSwitches | null | undefined;
}

/** Why a channel is on or off for a delivery. */
export type ChannelDecisionSource =
  /** A critical workflow: subscribers cannot turn it off. */
  | 'critical'
  /** The subscriber's global switch, or global channel switch, is off. */
  | 'global'
  /** The subscriber turned the whole workflow off. */
  | 'workflow'
  /** The subscriber's own switch for this channel of this workflow. */
  | 'subscriber'
  /** The trigger's tenant's override of the workflow (Novu's `workflowOverride` source). */
  | 'workflowOverride'
  /** The workflow's default for the channel. */
  | 'template'
  /** Nobody said anything: channels are on. */
  | 'default';

export interface ChannelDecision {
  enabled: boolean;
  source: ChannelDecisionSource;
}

const said = (switches: ChannelSwitches | null | undefined, channel: Channel) =>
  typeof switches?.[channel] === 'boolean' ? switches[channel] : undefined;

/**
 * Whether a channel step of the workflow may deliver to the subscriber, and why. In order:
 * a critical workflow always delivers (its subscriber switches are ignored); a global switch
 * that is off stops every non-critical workflow, wholly or for its channel; a workflow the
 * subscriber turned off stops all its channels; the subscriber's channel switch beats the
 * tenant's override of the workflow (for a trigger naming a tenant that has one), which beats
 * the workflow's default, as in Novu; a channel nobody named is on.
 */
export function resolveChannel(input: {
  workflow: Pick<PreferenceWorkflow, 'critical' | 'preferenceSettings'>;
  workflowPreference?: PreferenceRow | null | undefined;
  globalPreference?: PreferenceRow | null | undefined;
  /** The switches of the trigger's tenant's override of the workflow. */
  tenantOverride?: ChannelSwitches | null | undefined;
  channel: Channel;
}): ChannelDecision {
  const { workflow, workflowPreference: mine, globalPreference: global, channel } = input;
  if (workflow.critical) return { enabled: true, source: 'critical' };
  if (global && (!global.enabled || said(global.channels, channel) === false)) {
    return { enabled: false, source: 'global' };
  }
  if (mine && !mine.enabled) return { enabled: false, source: 'workflow' };
  const own = said(mine?.channels, channel);
  if (own !== undefined) return { enabled: own, source: 'subscriber' };
  const overridden = said(input.tenantOverride, channel);
  if (overridden !== undefined) return { enabled: overridden, source: 'workflowOverride' };
  const byDefault = said(workflow.preferenceSettings, channel);
  if (byDefault !== undefined) return { enabled: byDefault, source: 'template' };
  return { enabled: true, source: 'default' };
}

/** The channels of the workflow's active steps, in the usual channel order. */
export function activeChannels(workflow: Pick<PreferenceWorkflow, 'steps'>): Channel[] {
  const used = new Set(workflow.steps.filter((s) => s.active).map((s) => s.type));
  return CHANNELS.filter((c) => used.has(c));
}

/**
 * Novu's override sources of the preference answers. A tenant's override (`workflowOverride`)
 * is never one: preferences are read without a trigger, so without a tenant, as in Novu, and
 * it decides only deliveries (`resolveChannel`).
 */
export type OverrideSource = 'template' | 'subscriber';

export interface WorkflowPreferenceView {
  enabled: boolean;
  channels: ChannelSwitches;
  overrides: { channel: Channel; source: OverrideSource }[];
}

/**
 * What the subscriber sees of one workflow (GET /v1/widgets/preferences): the channels of its
 * active steps, each from the subscriber's switch or else the workflow's default, and where each
 * came from. The global switches are shown apart, as Novu does. For a critical workflow the
 * subscriber's switches are ignored, as they are when delivering.
 */
export function workflowPreferenceView(
  workflow: PreferenceWorkflow,
  workflowPreference: PreferenceRow | null | undefined,
): WorkflowPreferenceView {
  const mine = workflow.critical ? undefined : workflowPreference;
  const channels: ChannelSwitches = {};
  const overrides: WorkflowPreferenceView['overrides'] = [];
  for (const channel of activeChannels(workflow)) {
    const own = said(mine?.channels, channel);
    const byDefault = said(workflow.preferenceSettings, channel);
    channels[channel] = own ?? byDefault ?? true;
    if (own !== undefined) overrides.push({ channel, source: 'subscriber' });
    else if (byDefault !== undefined) overrides.push({ channel, source: 'template' });
  }
  return { enabled: mine?.enabled ?? true, channels, overrides };
}

/** The subscriber's global switches with every channel said (missing channels are on). */
export function globalPreferenceView(globalPreference: PreferenceRow | null | undefined) {
  return {
    enabled: globalPreference?.enabled ?? true,
    channels: Object.fromEntries(
      CHANNELS.map((c) => [c, said(globalPreference?.channels, c) ?? true]),
    ) as Record<Channel, boolean>,
  };
}
