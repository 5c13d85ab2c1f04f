import { describe, expect, it } from 'vitest';
import {
  draftOf,
  draftSchema,
  identifierOf,
  newStep,
  workflowBody,
  emptyDraft,
} from '../src/features/workflows/lib/draft.js';
import { parsePayload } from '../src/features/workflows/lib/payload.js';
import type { Workflow } from '../src/features/workflows/lib/types.js';

const saved: Workflow = {
  _id: 'w1',
  _notificationGroupId: 'g1',
  name: 'Order shipped',
  description: null,
  active: true,
  critical: false,
  tags: ['orders'],
  preferenceSettings: { in_app: true, email: true, sms: false, chat: true, push: true },
  triggers: [{ identifier: 'order-shipped', variables: [] }],
  updatedAt: '2026-11-27T00:00:00.000Z',
  steps: [
    {
      _id: 's1',
      uuid: 'u1',
      name: null,
      active: true,
      shouldStopOnFail: false,
      filters: [],
      template: {
        _id: 's1',
        type: 'in_app',
        content: 'Hi',
        _feedId: 'feed-1',
        ...({ cta: { type: 'redirect', data: { url: '/orders' } } } as object),
      },
    },
    {
      _id: 's2',
      uuid: 'u2',
      name: 'Wait',
      active: true,
      shouldStopOnFail: false,
      filters: [],
      metadata: { type: 'scheduled', delayPath: 'sendAt' },
      template: { _id: 's2', type: 'delay', content: '', _feedId: null },
    },
    {
      _id: 's3',
      uuid: 'u3',
      name: 'Digest',
      active: true,
      shouldStopOnFail: false,
      filters: [
        {
          value: 'OR',
          children: [
            { on: 'payload', field: 'total', operator: 'LARGER', value: 100 },
            { on: 'previousStep', step: 'u1', stepType: 'unread' },
          ],
        },
        { value: 'AND', children: [{ on: 'isOnline', value: false }] },
      ],
      metadata: {
        type: 'timed',
        amount: 1,
        unit: 'days',
        timed: { atTime: '08:00', weekDays: ['monday'], ordinal: '1', ordinalValue: 'day' },
      },
      template: { _id: 's3', type: 'digest', content: '', _feedId: null },
    },
  ],
};

describe('the workflow editor’s form model', () => {
  it('reads a workflow and writes it back as the routes take it, keeping what it does not edit', () => {
    const draft = draftOf(saved);
    draft.steps[2]!.atTime = '09:30';
    const body = workflowBody(draft);
    expect(body).toMatchObject({
      name: 'Order shipped',
      identifier: 'order-shipped',
      notificationGroupId: 'g1',
      tags: ['orders'],
      preferenceSettings: { sms: false, email: true },
    });
    const [inApp, delay, digest] = body.steps;
    expect(inApp).toMatchObject({
      _id: 's1',
      uuid: 'u1',
      template: {
        type: 'in_app',
        content: 'Hi',
        feedId: 'feed-1',
        cta: { data: { url: '/orders' } },
      },
    });
    expect(delay!.metadata).toEqual({ type: 'scheduled', delayPath: 'sendAt' });
    expect(digest!.metadata).toEqual({
      type: 'timed',
      amount: 1,
      unit: 'days',
      timed: { atTime: '09:30', weekDays: ['monday'], ordinal: '1', ordinalValue: 'day' },
    });
    expect(digest!.filters).toEqual([
      {
        type: 'GROUP',
        value: 'OR',
        children: [
          { on: 'payload', field: 'total', operator: 'LARGER', value: 100 },
          { on: 'previousStep', step: 'u1', stepType: 'unread' },
        ],
      },
      { value: 'AND', children: [{ on: 'isOnline', value: false }] },
    ]);
  });

  it("edits an in-app message's click: its link and buttons, keeping a button's result text", () => {
    const withButtons: Workflow = structuredClone(saved);
    Object.assign(withButtons.steps[0]!.template, {
      cta: {
        type: 'redirect',
        data: { url: '/orders' },
        action: { buttons: [{ type: 'primary', content: 'Accept', resultContent: 'Accepted' }] },
      },
    });
    const draft = draftOf(withButtons);
    const inApp = draft.steps[0]!;
    expect([inApp.redirectUrl, inApp.primaryButton, inApp.secondaryButton]).toEqual([
      '/orders',
      'Accept',
      '',
    ]);
    inApp.redirectUrl = 'https://shop.example/orders/{{orderId}}';
    inApp.primaryButton = 'Accept it';
    inApp.secondaryButton = 'Decline';
    expect(draftSchema.safeParse(draft).success).toBe(true);
    expect(workflowBody(draft).steps[0]!.template.cta).toEqual({
      type: 'redirect',
      data: { url: 'https://shop.example/orders/{{orderId}}' },
      action: {
        buttons: [
          { type: 'primary', content: 'Accept it', resultContent: 'Accepted' },
          { type: 'secondary', content: 'Decline' },
        ],
      },
    });
    // Emptied, the click is removed rather than kept from the saved step.
    Object.assign(inApp, { redirectUrl: '', primaryButton: '', secondaryButton: '' });
    expect(workflowBody(draft).steps[0]!.template.cta).toBeNull();
    const fresh = draftOf({ ...saved, steps: [] });
    fresh.steps = [newStep('in_app')];
    expect(workflowBody(fresh).steps[0]!.template.cta).toBeNull();
    for (const bad of ['javascript:alert(1)', '//evil.example', 'orders 1', 'data:text/html,x']) {
      inApp.redirectUrl = bad;
      const result = draftSchema.safeParse(draft);
      expect(result.success, bad).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['steps.0.redirectUrl']);
    }
  });

  it("edits an in-app message's avatar: none, the actor's picture, a system icon or an image", () => {
    const draft = draftOf(saved);
    const inApp = draft.steps[0]!;
    // The saved step has no actor: none, and none is not written.
    expect(inApp.avatar).toBe('none');
    expect(workflowBody(draft).steps[0]!.template).not.toHaveProperty('actor');
    inApp.avatar = 'system_icon';
    inApp.avatarIcon = 'warning';
    expect(workflowBody(draft).steps[0]!.template.actor).toEqual({
      type: 'system_icon',
      data: 'warning',
    });
    inApp.avatar = 'user';
    expect(workflowBody(draft).steps[0]!.template.actor).toEqual({ type: 'user', data: null });
    inApp.avatar = 'system_custom';
    for (const bad of ['', 'logo.png', 'javascript:alert(1)', 'https://a b']) {
      inApp.avatarUrl = bad;
      const result = draftSchema.safeParse(draft);
      expect(result.success, bad).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['steps.0.avatarUrl']);
    }
    inApp.avatarUrl = ' https://cdn.example/logo.png ';
    expect(draftSchema.safeParse(draft).success).toBe(true);
    expect(workflowBody(draft).steps[0]!.template.actor).toEqual({
      type: 'system_custom',
      data: 'https://cdn.example/logo.png',
    });
    // Read back as saved.
    const withIcon: Workflow = structuredClone(saved);
    Object.assign(withIcon.steps[0]!.template, { actor: { type: 'system_icon', data: 'up' } });
    expect(draftOf(withIcon).steps[0]).toMatchObject({ avatar: 'system_icon', avatarIcon: 'up' });
    // A saved "none" goes back as it was; a saved actor set to none goes.
    const withNone: Workflow = structuredClone(saved);
    Object.assign(withNone.steps[0]!.template, { actor: { type: 'none', data: null } });
    expect(workflowBody(draftOf(withNone)).steps[0]!.template.actor).toEqual({
      type: 'none',
      data: null,
    });
    const iconDraft = draftOf(withIcon);
    iconDraft.steps[0]!.avatar = 'none';
    expect(workflowBody(iconDraft).steps[0]!.template).not.toHaveProperty('actor');
  });

  it('edits a delay: for a time, or until the date at a payload path', () => {
    const draft = draftOf(saved);
    const delay = draft.steps[1]!;
    expect([delay.delayType, delay.delayPath]).toEqual(['scheduled', 'sendAt']);
    delay.delayPath = ' booking.startsAt ';
    expect(workflowBody(draft).steps[1]!.metadata).toEqual({
      type: 'scheduled',
      delayPath: 'booking.startsAt',
    });
    delay.delayPath = '';
    expect(draftSchema.safeParse(draft).error!.issues.map((i) => i.message)).toEqual([
      'Enter the payload path of the date',
    ]);
    Object.assign(delay, { delayType: 'regular', amount: '2', unit: 'hours' });
    expect(draftSchema.safeParse(draft).success).toBe(true);
    expect(workflowBody(draft).steps[1]!.metadata).toEqual({
      type: 'regular',
      amount: 2,
      unit: 'hours',
    });
  });

  it("edits a timed digest's days: week days in the server's order, month days from a list", () => {
    const draft = draftOf(saved);
    const digest = draft.steps[2]!;
    expect(digest.weekDays).toEqual(['monday']);
    expect(digest.monthDays).toBe('');
    digest.weekDays = ['friday', 'monday'];
    digest.monthDays = ' 15, 1,15 ';
    expect(draftSchema.safeParse(draft).success).toBe(true);
    expect(workflowBody(draft).steps[2]!.metadata).toEqual({
      type: 'timed',
      amount: 1,
      unit: 'days',
      // The ordinals the editor does not show stay as saved.
      timed: {
        atTime: '08:00',
        weekDays: ['monday', 'friday'],
        monthDays: [1, 15],
        ordinal: '1',
        ordinalValue: 'day',
      },
    });
    // Cleared, the days are no longer sent: every day at the time.
    digest.weekDays = [];
    digest.monthDays = '';
    expect(workflowBody(draft).steps[2]!.metadata!.timed).toEqual({
      atTime: '08:00',
      ordinal: '1',
      ordinalValue: 'day',
    });
    // A timed digest has no window: its hidden amount is not checked.
    digest.amount = '';
    for (const bad of ['0', '32', 'x', '1;2', '1.5']) {
      digest.monthDays = bad;
      const result = draftSchema.safeParse(draft);
      expect(result.success, bad).toBe(false);
      expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['steps.2.monthDays', 'Enter days of the month from 1 to 31, separated by commas'],
      ]);
    }
  });

  it('checks every field of a step at once, beside its field', () => {
    const draft = emptyDraft('g1');
    const email = { ...newStep('email'), subject: ' ' };
    email.conditions = [
      {
        on: 'webhook',
        field: '',
        operator: 'EQUAL',
        value: '',
        webhookUrl: 'not a url',
        online: 'true',
        timeOperator: 'minutes',
        step: '',
        stepType: 'read',
      },
    ];
    draft.steps = [email, { ...newStep('digest'), digestType: 'backoff', backoffAmount: '0' }];
    const result = draftSchema.safeParse(draft);
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'name',
        'identifier',
        'steps.0.subject',
        'steps.0.conditions.0.field',
        'steps.0.conditions.0.webhookUrl',
        'steps.1.backoffAmount',
      ]),
    );
  });

  it('makes identifiers the server accepts, and reads payloads as JSON objects only', () => {
    expect(identifierOf('  Órder shipped! 2 ')).toBe('order-shipped-2');
    expect(parsePayload('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parsePayload('')).toEqual({ ok: true, value: {} });
    expect(parsePayload('[1]').ok).toBe(false);
    expect(parsePayload('{').ok).toBe(false);
  });
});
