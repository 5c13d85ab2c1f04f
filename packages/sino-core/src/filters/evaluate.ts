import { differenceInDays } from 'date-fns/differenceInDays';
import { differenceInHours } from 'date-fns/differenceInHours';
import { differenceInMinutes } from 'date-fns/differenceInMinutes';
import { z } from 'zod';
import { FILTER_OPERATORS, type FilterSource } from '@sino/shared';
import { compare, getPath } from './operators.js';

/**
 * Step filters with Novu 0.24's semantics:
 * - the step runs when ANY group matches (groups are OR'ed); no groups, or a group without
 *   children, matches;
 * - a group with one child is that child, whatever its AND/OR; with more, AND needs all and
 *   OR needs one; any other group operator matches nothing;
 * - webhook children are called last, and only when the others leave the group undecided, since
 *   they cost an HTTP call;
 * - `isNegated` inverts a group's result (Novu stores it but never reads it; the editor always
 *   saves false, so honouring it changes nothing for Novu's clients).
 * A child that cannot be evaluated (malformed, webhook down, port error) fails its condition
 * instead of throwing, and the reason is in the conditions the engine records.
 */

/** One group of a step's filters, as stored (children are validated on evaluation). */
export interface FilterGroup {
  isNegated?: boolean | undefined;
  type?: string | undefined;
  value: string;
  children?: readonly unknown[] | undefined;
}

/** What was checked for one child, Novu's `ICondition` plus the source and group. */
export interface FilterCondition {
  /** Index of the group in the step's filters. */
  group: number;
  on: string;
  /** Novu's label of the source ("Payload", "Online right now"...). */
  filter: string;
  field: string;
  operator: string;
  expected: string;
  actual: string;
  passed: boolean;
  error?: string;
}

export interface FilterOutcome {
  passed: boolean;
  conditions: FilterCondition[];
}

/** What a webhook child POSTs, as Novu: the payload and subscriber, workflow and channel. */
export interface WebhookRequestBody {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown>;
  tenant?: Record<string, unknown>;
  identifier?: string;
  channel?: string;
  providerId?: string;
}

export interface FilterInput {
  payload: Record<string, unknown>;
  /** Novu's subscriber fields; `isOnline` and `lastOnlineAt` serve the online sources. */
  subscriber: Record<string, unknown>;
  tenant?: Record<string, unknown> | undefined;
  /** Workflow identifier, step channel and provider, sent to webhooks. */
  identifier?: string | undefined;
  channel?: string | undefined;
  providerId?: string | undefined;
}

export interface PreviousStepMessage {
  seen: boolean;
  read: boolean;
}

/** The impure parts, supplied by the engine. */
export interface FilterPorts {
  /** POSTs `body` as JSON to `url` and returns the parsed answer; throws when it cannot. */
  callWebhook(url: string, body: WebhookRequestBody): Promise<unknown>;
  /** The message the step with this uuid sent in the same notification, or null. */
  previousStepMessage(stepUuid: string): Promise<PreviousStepMessage | null>;
  now(): Date;
}

const LABELS: Record<FilterSource, string> = {
  payload: 'Payload',
  subscriber: 'Subscriber',
  tenant: 'Tenant',
  webhook: 'Webhook',
  isOnline: 'Online right now',
  isOnlineInLast: "Online in the last 'X' time period",
  previousStep: 'Previous step',
};

const operator = z.enum(FILTER_OPERATORS);
const booleanText = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((v) => v === 'true'),
]);
const count = z.union([
  z.number().nonnegative(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

const childSchema = z.discriminatedUnion('on', [
  z.object({
    on: z.enum(['payload', 'subscriber', 'tenant']),
    field: z.string().min(1),
    operator,
    value: z.unknown(),
  }),
  z.object({
    on: z.literal('webhook'),
    webhookUrl: z.url({ protocol: /^https?$/ }),
    field: z.string().min(1),
    operator,
    value: z.unknown(),
  }),
  z.object({ on: z.literal('isOnline'), value: booleanText }),
  z.object({
    on: z.literal('isOnlineInLast'),
    timeOperator: z.enum(['minutes', 'hours', 'days']),
    value: count,
  }),
  z.object({
    on: z.literal('previousStep'),
    step: z.string().min(1),
    stepType: z.enum(['read', 'unread', 'seen', 'unseen']),
  }),
]);
type Child = z.infer<typeof childSchema>;

/** Values in the conditions are text, as in Novu's execution details. */
function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && !(value instanceof Date)) return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

const DIFFERENCE = {
  minutes: differenceInMinutes,
  hours: differenceInHours,
  days: differenceInDays,
} as const;

export async function evaluateFilters(
  filters: readonly FilterGroup[] | null | undefined,
  input: FilterInput,
  ports: FilterPorts,
): Promise<FilterOutcome> {
  const conditions: FilterCondition[] = [];
  // Two children calling the same webhook in one evaluation get the same (single) answer.
  const webhookAnswers = new Map<string, Promise<unknown>>();

  async function child(group: number, raw: unknown): Promise<boolean> {
    const parsed = childSchema.safeParse(raw);
    if (!parsed.success) {
      const on = display(getPath(raw, 'on'));
      conditions.push({
        group,
        on,
        filter: LABELS[on as FilterSource] ?? on,
        field: display(getPath(raw, 'field')),
        operator: display(getPath(raw, 'operator')),
        expected: display(getPath(raw, 'value')),
        actual: '',
        passed: false,
        error: `Invalid filter: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'child'}: ${i.message}`).join('; ')}`,
      });
      return false;
    }
    const record = (c: Omit<FilterCondition, 'group' | 'on' | 'filter'>) => {
      conditions.push({ group, on: parsed.data.on, filter: LABELS[parsed.data.on], ...c });
      return c.passed;
    };
    try {
      return await evaluate(parsed.data, record);
    } catch (error) {
      const c = parsed.data;
      return record({
        field: 'field' in c ? c.field : 'step' in c ? c.stepType : c.on,
        operator: 'operator' in c ? c.operator : 'EQUAL',
        expected: 'value' in c ? display(c.value) : '',
        actual: '',
        passed: false,
        error: messageOf(error),
      });
    }
  }

  async function evaluate(
    c: Child,
    record: (c: Omit<FilterCondition, 'group' | 'on' | 'filter'>) => boolean,
  ): Promise<boolean> {
    switch (c.on) {
      case 'payload':
      case 'subscriber':
      case 'tenant': {
        const source =
          c.on === 'payload'
            ? input.payload
            : c.on === 'subscriber'
              ? input.subscriber
              : input.tenant;
        const actual = getPath(source, c.field);
        const result = compare(actual, c.operator, c.value);
        return record({
          field: c.field,
          operator: c.operator,
          expected: display(result.expected),
          actual: display(actual),
          passed: result.passed,
          ...(result.error && { error: result.error }),
        });
      }
      case 'webhook': {
        let answer = webhookAnswers.get(c.webhookUrl);
        if (!answer) {
          answer = ports.callWebhook(c.webhookUrl, webhookBody(input));
          webhookAnswers.set(c.webhookUrl, answer);
        }
        const actual = getPath(await answer, c.field);
        const result = compare(actual, c.operator, c.value);
        return record({
          field: c.field,
          operator: c.operator,
          expected: display(result.expected),
          actual: display(actual),
          passed: result.passed,
          ...(result.error && { error: result.error }),
        });
      }
      case 'isOnline': {
        const online = input.subscriber.isOnline === true;
        return record({
          field: 'isOnline',
          operator: 'EQUAL',
          expected: String(c.value),
          actual: String(online),
          passed: online === c.value,
        });
      }
      case 'isOnlineInLast': {
        if (input.subscriber.isOnline === true) {
          return record({
            field: 'isOnline',
            operator: c.timeOperator,
            expected: 'true',
            actual: 'true',
            passed: true,
          });
        }
        // Novu counts a subscriber never seen online as online "now"; here it does not match.
        const last = toDate(input.subscriber.lastOnlineAt);
        const diff = last ? DIFFERENCE[c.timeOperator](ports.now(), last) : undefined;
        return record({
          field: 'lastOnlineAt',
          operator: c.timeOperator,
          expected: String(c.value),
          actual: diff === undefined ? '' : String(diff),
          passed: diff !== undefined && diff >= 0 && diff <= c.value,
        });
      }
      case 'previousStep': {
        const message = await ports.previousStepMessage(c.step);
        // As Novu: no earlier job or message to look at lets the step run.
        if (!message) {
          return record({
            field: c.stepType,
            operator: 'EQUAL',
            expected: 'true',
            actual: 'no message',
            passed: true,
          });
        }
        const flag = c.stepType === 'seen' || c.stepType === 'unseen' ? message.seen : message.read;
        const passed = c.stepType === 'unread' || c.stepType === 'unseen' ? !flag : flag;
        return record({
          field: c.stepType,
          operator: 'EQUAL',
          expected: 'true',
          actual: String(passed),
          passed,
        });
      }
    }
  }

  async function group(index: number, filter: FilterGroup): Promise<boolean> {
    const children = filter.children ?? [];
    if (children.length === 1) return child(index, children[0]);

    const isWebhook = (c: unknown) => getPath(c, 'on') === 'webhook';
    const others = children.filter((c) => !isWebhook(c));
    const webhooks = children.filter(isWebhook);

    if (filter.value === 'AND') {
      // Every other child is evaluated so the details show all that failed, not just the first.
      let all = true;
      for (const c of others) all = (await child(index, c)) && all;
      if (!all) return false;
      for (const c of webhooks) if (!(await child(index, c))) return false;
      return true;
    }
    if (filter.value === 'OR') {
      for (const c of [...others, ...webhooks]) if (await child(index, c)) return true;
      return false;
    }
    conditions.push({
      group: index,
      on: '',
      filter: 'Group',
      field: '',
      operator: display(filter.value),
      expected: 'AND or OR',
      actual: display(filter.value),
      passed: false,
      error: `Unknown group operator "${display(filter.value)}"`,
    });
    return false;
  }

  for (const [index, filter] of (filters ?? []).entries()) {
    // An empty group states no condition: it matches, negated or not (as in Novu).
    if ((filter.children ?? []).length === 0) return { passed: true, conditions };
    const matched = await group(index, filter);
    if (filter.isNegated ? !matched : matched) return { passed: true, conditions };
  }
  return { passed: (filters ?? []).length === 0, conditions };
}

function webhookBody(input: FilterInput): WebhookRequestBody {
  return {
    payload: input.payload,
    subscriber: input.subscriber,
    ...(input.tenant && { tenant: input.tenant }),
    ...(input.identifier !== undefined && { identifier: input.identifier }),
    ...(input.channel !== undefined && { channel: input.channel }),
    ...(input.providerId !== undefined && { providerId: input.providerId }),
  };
}
