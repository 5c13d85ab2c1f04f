import { SYSTEM_ICON_NAMES, type SystemIconName } from '@sino/react';
import { z } from '../../../lib/forms';
import type { TIME_UNITS } from './types';
import {
  CHANNELS,
  type Channel,
  type FilterAnswer,
  type StepAnswer,
  type StepType,
  type WeekDay,
  type Workflow,
  WEEK_DAYS,
} from './types';

// The editor's form model (every input a string, as the page holds it) and its conversion to
// and from the body of Sino's workflow routes (`POST`/`PUT /v1/workflows`, schemas.ts there).

export const FILTER_SOURCES = [
  { value: 'payload', label: 'Payload' },
  { value: 'tenant', label: 'Tenant' },
  { value: 'subscriber', label: 'Subscriber' },
  { value: 'webhook', label: 'Webhook' },
  { value: 'isOnline', label: 'Online right now' },
  { value: 'isOnlineInLast', label: "Online in the last 'X' time period" },
  { value: 'previousStep', label: 'Previous step' },
] as const;
export type FilterSource = (typeof FILTER_SOURCES)[number]['value'];

export const OPERATORS = [
  { value: 'EQUAL', label: 'Equal' },
  { value: 'NOT_EQUAL', label: 'Not equal' },
  { value: 'LARGER', label: 'Larger than' },
  { value: 'SMALLER', label: 'Smaller than' },
  { value: 'LARGER_EQUAL', label: 'Larger or equal' },
  { value: 'SMALLER_EQUAL', label: 'Smaller or equal' },
  { value: 'IN', label: 'In (comma-separated)' },
  { value: 'NOT_IN', label: 'Not in (comma-separated)' },
  { value: 'LIKE', label: 'Contains' },
  { value: 'NOT_LIKE', label: 'Does not contain' },
  { value: 'BETWEEN', label: 'Between (two values, comma-separated)' },
  { value: 'NOT_BETWEEN', label: 'Not between (two values, comma-separated)' },
  { value: 'IS_DEFINED', label: 'Is defined' },
] as const;
export type Operator = (typeof OPERATORS)[number]['value'];

export interface ConditionDraft {
  on: FilterSource;
  field: string;
  operator: Operator;
  value: string;
  webhookUrl: string;
  online: 'true' | 'false';
  timeOperator: 'minutes' | 'hours' | 'days';
  step: string;
  stepType: 'read' | 'unread' | 'seen' | 'unseen';
}

export interface StepDraft {
  /** Kept across saves (the server keeps a step whose `_id` is given). */
  _id: string;
  uuid: string;
  type: StepType;
  name: string;
  active: boolean;
  subject: string;
  preheader: string;
  senderName: string;
  title: string;
  content: string;
  layoutId: string;
  // Digest and delay
  digestType: 'regular' | 'backoff' | 'timed';
  /** A delay waits for a time, or until the date at a payload path. */
  delayType: 'regular' | 'scheduled';
  delayPath: string;
  amount: string;
  unit: (typeof TIME_UNITS)[number];
  digestKey: string;
  backoffAmount: string;
  backoffUnit: (typeof TIME_UNITS)[number];
  atTime: string;
  /** An in-app message's click: the link the inbox opens, and its buttons' labels. */
  redirectUrl: string;
  primaryButton: string;
  secondaryButton: string;
  /**
   * An in-app message's avatar (Novu's `actor`): none, the trigger's actor's picture, one of
   * the inbox's system icons, or an image.
   */
  avatar: AvatarKind;
  avatarIcon: SystemIconName;
  avatarUrl: string;
  /** A timed digest's days of the week (none: every day) and of the month ("1, 15"). */
  weekDays: WeekDay[];
  monthDays: string;
  // Filters: one group of conditions, joined by AND or OR (Novu's editor makes one group).
  filterJoin: 'AND' | 'OR';
  conditions: ConditionDraft[];
  /**
   * What the editor does not edit, read from the saved step and sent back unchanged (JSON):
   * filter groups after the first, the in-app CTA, actor and feed, a timed digest's ordinals.
   */
  kept: string;
}

/** "1, 15" as [1, 15]; undefined when a part is not a day of the month. */
export function monthDaysOf(text: string): number[] | undefined {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const days = parts.map(Number);
  if (days.some((d, i) => !/^\d{1,2}$/.test(parts[i]!) || d < 1 || d > 31)) return undefined;
  return [...new Set(days)].sort((a, b) => a - b);
}

/** A timed digest's schedule as the server takes it: only the days chosen. */
function timedOf(s: StepDraft): Record<string, unknown> {
  const weekDays = WEEK_DAYS.filter((d) => s.weekDays.includes(d));
  const monthDays = monthDaysOf(s.monthDays) ?? [];
  return {
    atTime: s.atTime,
    ...(weekDays.length > 0 && { weekDays }),
    ...(monthDays.length > 0 && { monthDays }),
  };
}

interface Kept {
  filters?: FilterAnswer[];
  template?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface WorkflowDraft {
  name: string;
  identifier: string;
  description: string;
  groupId: string;
  tags: string;
  critical: boolean;
  preferences: Record<Channel, boolean>;
  steps: StepDraft[];
}

const newUuid = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export const STARTER_CONTENT: Record<StepType, string> = {
  in_app: 'Hello {{subscriber.firstName}}, {{title}}',
  email: '<p>Hello {{subscriber.firstName}},</p>\n<p>{{message}}</p>',
  sms: 'Hello {{subscriber.firstName}}: {{message}}',
  chat: '{{message}}',
  push: '{{message}}',
  digest: '',
  delay: '',
};

export function newCondition(): ConditionDraft {
  return {
    on: 'payload',
    field: '',
    operator: 'EQUAL',
    value: '',
    webhookUrl: '',
    online: 'true',
    timeOperator: 'minutes',
    step: '',
    stepType: 'read',
  };
}

export function newStep(type: StepType): StepDraft {
  return {
    _id: '',
    uuid: newUuid(),
    type,
    name: '',
    active: true,
    subject: type === 'email' ? 'A message for {{subscriber.firstName}}' : '',
    preheader: '',
    senderName: '',
    title: type === 'push' ? 'Hello {{subscriber.firstName}}' : '',
    content: STARTER_CONTENT[type],
    layoutId: '',
    digestType: 'regular',
    delayType: 'regular',
    delayPath: '',
    amount: type === 'delay' ? '1' : '5',
    unit: 'minutes',
    digestKey: '',
    backoffAmount: '5',
    backoffUnit: 'minutes',
    atTime: '09:00',
    weekDays: [],
    monthDays: '',
    redirectUrl: '',
    primaryButton: '',
    secondaryButton: '',
    avatar: 'none',
    avatarIcon: 'info',
    avatarUrl: '',
    filterJoin: 'AND',
    conditions: [],
    kept: '{}',
  };
}

export const emptyDraft = (groupId: string): WorkflowDraft => ({
  name: '',
  identifier: '',
  description: '',
  groupId,
  tags: '',
  critical: false,
  preferences: { in_app: true, email: true, sms: true, chat: true, push: true },
  steps: [],
});

const str = (v: unknown, fallback = '') =>
  typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : fallback;

function conditionOf(c: Record<string, unknown>): ConditionDraft {
  const base = newCondition();
  const on = (c.on ?? 'payload') as FilterSource;
  return {
    ...base,
    on,
    field: str(c.field),
    operator: (c.operator as Operator | undefined) ?? 'EQUAL',
    value: on === 'isOnlineInLast' ? str(c.value, '1') : str(c.value),
    webhookUrl: str(c.webhookUrl),
    online: c.value === false ? 'false' : 'true',
    timeOperator: (c.timeOperator as ConditionDraft['timeOperator'] | undefined) ?? 'minutes',
    step: str(c.step),
    stepType: (c.stepType as ConditionDraft['stepType'] | undefined) ?? 'read',
  };
}

function keptOf(step: StepAnswer): Kept {
  const t = step.template as StepAnswer['template'] & Record<string, unknown>;
  const template: Record<string, unknown> = {};
  // The CTA's link and buttons are edited; what else it holds (a button's result text) is kept.
  if (t.cta) template.cta = t.cta;
  // A saved "no avatar" is sent back as it was; any other actor is edited.
  if ((t.actor as Actor | null | undefined)?.type === 'none') template.actor = t.actor;
  if (t._feedId) template.feedId = t._feedId;
  // A timed digest's ordinals; its time and days are edited.
  const {
    atTime: _time,
    weekDays: _weekDays,
    monthDays: _monthDays,
    ...ordinals
  } = (step.metadata?.timed ?? {}) as Record<string, unknown>;
  return {
    filters: step.filters.slice(1),
    template,
    ...(Object.keys(ordinals).length > 0 && { metadata: { timed: ordinals } }),
  };
}

function stepOf(step: StepAnswer): StepDraft {
  const m = step.metadata ?? {};
  const t = step.template;
  const filter: FilterAnswer | undefined = step.filters[0];
  const timed = (m.timed ?? {}) as { atTime?: string; weekDays?: WeekDay[]; monthDays?: number[] };
  return {
    ...newStep(t.type),
    _id: step._id,
    uuid: step.uuid,
    name: step.name ?? '',
    active: step.active,
    subject: t.subject ?? '',
    preheader: t.preheader ?? '',
    senderName: t.senderName ?? '',
    title: t.title ?? '',
    content: t.content,
    layoutId: t._layoutId ?? '',
    digestType: m.type === 'backoff' || m.type === 'timed' ? m.type : 'regular',
    delayType: t.type === 'delay' && m.type === 'scheduled' ? 'scheduled' : 'regular',
    delayPath: str(m.delayPath),
    amount: str(m.amount, '1'),
    unit: (m.unit as StepDraft['unit'] | undefined) ?? 'minutes',
    digestKey: str(m.digestKey),
    backoffAmount: str(m.backoffAmount, '5'),
    backoffUnit: (m.backoffUnit as StepDraft['unit'] | undefined) ?? 'minutes',
    atTime: timed.atTime ?? '09:00',
    weekDays: timed.weekDays ?? [],
    monthDays: (timed.monthDays ?? []).join(', '),
    ...ctaFieldsOf((t as { cta?: Cta | null }).cta),
    ...avatarFieldsOf((t as { actor?: Actor | null }).actor),
    filterJoin: filter?.value ?? 'AND',
    conditions: (filter?.children ?? []).map(conditionOf),
    kept: JSON.stringify(keptOf(step)),
  };
}

export function draftOf(w: Workflow): WorkflowDraft {
  return {
    name: w.name,
    identifier: w.triggers[0]?.identifier ?? '',
    description: w.description ?? '',
    groupId: w._notificationGroupId ?? '',
    tags: w.tags.join(', '),
    critical: w.critical,
    preferences: Object.fromEntries(
      CHANNELS.map((c) => [c, w.preferenceSettings[c] ?? true]),
    ) as Record<Channel, boolean>,
    steps: w.steps.map(stepOf),
  };
}

/** A filter value as the server compares it: numbers stay numbers. */
const typed = (value: string): string | number =>
  value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

function conditionBody(c: ConditionDraft): Record<string, unknown> {
  switch (c.on) {
    case 'isOnline':
      return { on: 'isOnline', value: c.online === 'true' };
    case 'isOnlineInLast':
      return { on: 'isOnlineInLast', value: Number(c.value), timeOperator: c.timeOperator };
    case 'previousStep':
      return { on: 'previousStep', step: c.step, stepType: c.stepType };
    case 'webhook':
      return {
        on: 'webhook',
        field: c.field.trim(),
        operator: c.operator,
        value: typed(c.value),
        webhookUrl: c.webhookUrl.trim(),
      };
    default:
      return { on: c.on, field: c.field.trim(), operator: c.operator, value: typed(c.value) };
  }
}

const opt = (v: string) => (v.trim() === '' ? undefined : v);

interface CtaButton {
  type: 'primary' | 'secondary';
  content: string;
  resultContent?: string;
}
interface Cta {
  type?: string;
  data?: { url?: string };
  action?: { buttons?: CtaButton[] } & Record<string, unknown>;
}

function ctaFieldsOf(cta: Cta | null | undefined) {
  const button = (type: CtaButton['type']) =>
    cta?.action?.buttons?.find((b) => b.type === type)?.content ?? '';
  return {
    redirectUrl: cta?.data?.url ?? '',
    primaryButton: button('primary'),
    secondaryButton: button('secondary'),
  };
}

/**
 * An in-app step's CTA from the editor's fields (Novu's shape: a redirect and up to two
 * buttons), keeping each saved button's result text; null when the fields are empty.
 */
function ctaOf(s: StepDraft, saved: Cta | undefined): Cta | null {
  const buttons = (['primary', 'secondary'] as const).flatMap((type) => {
    const content = (type === 'primary' ? s.primaryButton : s.secondaryButton).trim();
    if (!content) return [];
    const before = saved?.action?.buttons?.find((b) => b.type === type);
    return [{ ...before, type, content }];
  });
  const url = s.redirectUrl.trim();
  if (!url && buttons.length === 0) return null;
  return {
    ...saved,
    type: 'redirect',
    data: { ...saved?.data, url },
    ...((buttons.length > 0 || saved?.action) && { action: { ...saved?.action, buttons } }),
  };
}

export type AvatarKind = 'none' | 'user' | 'system_icon' | 'system_custom';
interface Actor {
  type: AvatarKind;
  data?: string | null;
}

function avatarFieldsOf(actor: Actor | null | undefined) {
  const icon = SYSTEM_ICON_NAMES.find((name) => name === actor?.data);
  return {
    avatar: actor?.type ?? 'none',
    avatarIcon: icon ?? 'info',
    avatarUrl: actor?.type === 'system_custom' ? (actor.data ?? '') : '',
  };
}

/** The step's `actor` from the editor's fields; undefined for none (a saved none is kept). */
function actorOf(s: StepDraft): Actor | undefined {
  if (s.avatar === 'system_icon') return { type: 'system_icon', data: s.avatarIcon };
  if (s.avatar === 'system_custom') return { type: 'system_custom', data: s.avatarUrl.trim() };
  if (s.avatar === 'user') return { type: 'user', data: null };
  return undefined;
}

/** An image an inbox may load: an absolute https:// or http:// URL. */
const IMAGE_URL = /^https?:\/\/\S+$/i;

/** A link the inbox may open: a path, http(s), or one starting with a {{variable}}. */
const CLICK_LINK = /^(\/(?!\/)|https?:\/\/|\{\{)\S*$/i;

function stepBody(s: StepDraft) {
  const template: Record<string, unknown> = { type: s.type };
  if (s.type === 'email') {
    Object.assign(template, {
      subject: s.subject,
      preheader: opt(s.preheader) ?? null,
      senderName: opt(s.senderName) ?? null,
      content: s.content,
      layoutId: opt(s.layoutId) ?? null,
    });
  } else if (s.type === 'push') Object.assign(template, { title: s.title, content: s.content });
  else if (s.type !== 'digest' && s.type !== 'delay') template.content = s.content;

  const kept = JSON.parse(s.kept) as Kept;
  let metadata: Record<string, unknown> | undefined;
  if (s.type === 'delay')
    metadata =
      s.delayType === 'scheduled'
        ? { type: 'scheduled', delayPath: s.delayPath.trim() }
        : { type: 'regular', amount: Number(s.amount), unit: s.unit };
  if (s.type === 'digest') {
    metadata = {
      type: s.digestType,
      amount: Number(s.amount),
      unit: s.unit,
      ...(opt(s.digestKey) && { digestKey: s.digestKey.trim() }),
      ...(s.digestType === 'backoff' && {
        backoff: true,
        backoffAmount: Number(s.backoffAmount),
        backoffUnit: s.backoffUnit,
      }),
      ...(s.digestType === 'timed' && {
        timed: { ...(kept.metadata?.timed as object | undefined), ...timedOf(s) },
      }),
    };
  }
  Object.assign(template, { ...kept.template, ...template });
  if (s.type === 'in_app') {
    template.cta = ctaOf(s, kept.template?.cta as Cta | undefined);
    const actor = actorOf(s);
    if (actor) template.actor = actor;
  }
  const built =
    s.conditions.length === 0
      ? []
      : [{ type: 'GROUP', value: s.filterJoin, children: s.conditions.map(conditionBody) }];
  return {
    ...(s._id && { _id: s._id }),
    uuid: s.uuid,
    name: opt(s.name) ?? null,
    active: s.active,
    filters: [...built, ...(kept.filters ?? [])],
    ...(metadata && { metadata }),
    template,
  };
}

export const tagsOf = (tags: string) => [
  ...new Set(
    tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/** The body of `POST /v1/workflows` and `PUT /v1/workflows/:id` (same fields). */
export function workflowBody(d: WorkflowDraft) {
  return {
    name: d.name.trim(),
    identifier: d.identifier.trim(),
    description: d.description.trim() || null,
    ...(d.groupId && { notificationGroupId: d.groupId }),
    tags: tagsOf(d.tags),
    critical: d.critical,
    preferenceSettings: d.preferences,
    steps: d.steps.map(stepBody),
  };
}

/** An identifier made from a name, as the server's rule allows it. */
export const identifierOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    // The accents NFKD split off go; the letters stay.
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);

// The server's rules (schemas.ts of the workflow module), checked before sending so each error
// shows beside its field; the server checks them again.

/** A condition's own checks, reported under `conditions.<index>` of its step. */
function checkCondition(c: ConditionDraft, add: (path: string, message: string) => void) {
  const fieldBased = ['payload', 'tenant', 'subscriber', 'webhook'].includes(c.on);
  if (fieldBased && !c.field.trim()) add('field', 'Enter the field to compare');
  if (fieldBased && c.field.length > 200) add('field', 'Use at most 200 characters');
  if (fieldBased && c.operator !== 'IS_DEFINED' && c.value.length > 1000)
    add('value', 'Use at most 1000 characters');
  if (c.on === 'webhook' && !/^https?:\/\/\S+$/.test(c.webhookUrl.trim()))
    add('webhookUrl', 'Enter the webhook’s URL (https://…)');
  if (c.on === 'isOnlineInLast' && !WHOLE.test(c.value.trim()))
    add('value', 'Enter a whole number above 0');
  if (c.on === 'previousStep' && !c.step) add('step', 'Choose an earlier step');
}

const WHOLE = /^[1-9]\d*$/;

// One check over the whole step (its fields are all strings the page holds, so nothing before
// it fails and stops it): every error of the step shows at once.
const step = z.custom<StepDraft>().check(
  z.superRefine((s, ctx) => {
    const add = (path: (string | number)[], message: string) =>
      ctx.issues.push({ code: 'custom', path, message, input: s });
    const channel = s.type !== 'digest' && s.type !== 'delay';
    if (s.name.length > 200) add(['name'], 'Use at most 200 characters');
    if (channel && !s.content.trim()) add(['content'], 'Write the message');
    if (s.content.length > 100_000) add(['content'], 'Use at most 100,000 characters');
    if (s.type === 'email' && !s.subject.trim()) add(['subject'], 'Write the subject');
    if (s.type === 'push' && s.title.length > 1000) add(['title'], 'Use at most 1000 characters');
    // A timed digest and a scheduled delay wait for a date: they have no window to check.
    const timed = s.type === 'digest' && s.digestType === 'timed';
    const scheduled = s.type === 'delay' && s.delayType === 'scheduled';
    if (scheduled && !s.delayPath.trim()) add(['delayPath'], 'Enter the payload path of the date');
    if (scheduled && s.delayPath.length > 200) add(['delayPath'], 'Use at most 200 characters');
    if (!channel && !timed && !scheduled && !WHOLE.test(s.amount.trim()))
      add(['amount'], 'Enter a whole number above 0');
    if (s.type === 'digest' && s.digestType === 'backoff' && !WHOLE.test(s.backoffAmount.trim()))
      add(['backoffAmount'], 'Enter a whole number above 0');
    if (
      s.type === 'digest' &&
      s.digestType === 'timed' &&
      !/^([01]\d|2[0-3]):[0-5]\d$/.test(s.atTime)
    )
      add(['atTime'], 'Enter a time as HH:mm');
    if (s.type === 'in_app' && s.redirectUrl.trim() && !CLICK_LINK.test(s.redirectUrl.trim()))
      add(['redirectUrl'], 'Start the link with /, https:// or a {{variable}}, without spaces');
    if (s.redirectUrl.length > 2000) add(['redirectUrl'], 'Use at most 2000 characters');
    for (const key of ['primaryButton', 'secondaryButton'] as const)
      if (s[key].length > 200) add([key], 'Use at most 200 characters');
    if (s.type === 'in_app' && s.avatar === 'system_custom') {
      if (!IMAGE_URL.test(s.avatarUrl.trim()))
        add(['avatarUrl'], 'Enter the image’s address, starting with https://');
      else if (s.avatarUrl.length > 2000) add(['avatarUrl'], 'Use at most 2000 characters');
    }
    if (s.type === 'digest' && s.digestType === 'timed' && !monthDaysOf(s.monthDays))
      add(['monthDays'], 'Enter days of the month from 1 to 31, separated by commas');
    if (s.conditions.length > 50) add(['conditions'], 'Use at most 50 conditions');
    s.conditions.forEach((c, i) =>
      checkCondition(c, (path, message) => add(['conditions', i, path], message)),
    );
  }),
);

export const draftSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Name the workflow' }),
      z.maxLength(200, { error: 'Use at most 200 characters' }),
    ),
  identifier: z.string().check(
    z.trim(),
    z.minLength(1, { error: 'Enter the identifier your trigger will name' }),
    z.maxLength(200, { error: 'Use at most 200 characters' }),
    z.regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, {
      error: 'Use letters, digits, "-", "_", "." or ":", starting with a letter or digit',
    }),
  ),
  description: z.string().check(z.maxLength(1000, { error: 'Use at most 1000 characters' })),
  groupId: z.string(),
  tags: z.string().check(
    z.refine((t) => tagsOf(t).every((tag) => tag.length <= 100), {
      error: 'Keep each tag to 100 characters',
    }),
    z.refine((t) => tagsOf(t).length <= 50, { error: 'Use at most 50 tags' }),
  ),
  critical: z.boolean(),
  preferences: z.record(z.string(), z.boolean()),
  steps: z.array(step).check(z.maxLength(50, { error: 'Use at most 50 steps' })),
});
