import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import {
  executionDetails,
  integrations,
  jobs,
  messages,
  notifications,
  queueJobs,
  sandboxOutbox,
  subscriberPreferences,
  subscribers,
  topicSubscribers,
} from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { addEnvironment, createSinoTestApp, listeningUrl, type SinoTestApp } from './harness.js';

/**
 * Issue 17, item 6: a subscriber erased for good. Its data leaves Sino (or stays without
 * anything personal: the environment's activity), its tokens and socket stop at once, and its
 * id is a tombstone: no session, no identify, and triggers naming it create nothing.
 */
let t: SinoTestApp;
let url: string;
const sockets: Socket[] = [];

// The person erased, and someone who stays: everything of theirs must be left as it was.
const ANA = {
  subscriberId: 'ana-apagada',
  firstName: 'Anabela',
  lastName: 'Quintanilha',
  email: 'anabela.quintanilha@example.com',
  phone: '+5531988887777',
  data: { apelido: 'Belinha Quintanilha' },
};
const WEBHOOK = 'https://hooks.example.com/services/anabela-quintanilha';
const DEVICE = 'device-token-da-anabela-quintanilha';
const DETALHE = 'CNH 01234567890 de Anabela Quintanilha';
/** Every value that would show Ana's data still in Sino. */
const PERSONAL = [
  ANA.subscriberId,
  ANA.firstName,
  ANA.lastName,
  ANA.email,
  ANA.phone,
  'Belinha',
  WEBHOOK,
  DEVICE,
  DETALHE,
];

beforeAll(async () => {
  t = await createSinoTestApp();
  url = await listeningUrl(t);
  for (const [identifier, steps] of [
    [
      'aviso',
      [
        { template: { type: 'in_app', content: 'Olá {{subscriber.firstName}}: {{detalhe}}' } },
        {
          template: {
            type: 'email',
            subject: 'Aviso para {{subscriber.firstName}} {{subscriber.lastName}}',
            content: '<p>{{detalhe}}</p>',
          },
        },
      ],
    ],
    [
      'lembrete',
      [
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } },
        { template: { type: 'in_app', content: 'Lembrete: {{detalhe}}' } },
      ],
    ],
    [
      'filtrado',
      [
        {
          template: { type: 'in_app', content: 'Só para a outra' },
          filters: [
            {
              value: 'AND',
              children: [
                { on: 'subscriber', field: 'email', operator: 'EQUAL', value: 'x@example.com' },
              ],
            },
          ],
        },
      ],
    ],
  ] as const) {
    const r = await t.api('POST', '/v1/workflows', {
      body: { name: identifier, identifier, active: true, steps },
    });
    if (r.statusCode !== 201) throw new Error(r.body);
  }
  for (const [providerId, channel] of [
    ['slack', 'chat'],
    ['fcm', 'push'],
  ] as const)
    await t.db.insert(integrations).values({
      id: newId(),
      environmentId: t.credentials.environmentId,
      organizationId: t.credentials.organizationId,
      providerId,
      channel,
      name: providerId,
      identifier: `${providerId}-erasure`,
      active: true,
    });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

const erase = (subscriberId: string, authorization?: string | null) =>
  t.api('POST', `/v1/subscribers/${encodeURIComponent(subscriberId)}/erase`, { authorization });

const trigger = async (body: Record<string, unknown>) => {
  const r = await t.api('POST', '/v1/events/trigger', { body });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { acknowledged: boolean; status: string };
};

async function eventually(check: () => Promise<boolean>, what: string) {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Connects a socket with the token: 'connected' or the refusal's message. */
function connect(token: string): Promise<{ socket: Socket; outcome: string }> {
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: { token },
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, outcome: 'connected' }));
    socket.once('connect_error', (error) => resolve({ socket, outcome: error.message }));
  });
}

const initialize = (subscriberId: string, hmacHash = t.subscriberHash(subscriberId)) =>
  t.widget('POST', '/session/initialize', {
    body: {
      applicationIdentifier: t.credentials.applicationIdentifier,
      subscriberId,
      hmacHash,
      firstName: 'Outra Pessoa',
    },
  });

async function rowOf(subscriberId: string, environmentId = t.credentials.environmentId) {
  const [row] = await t.db
    .select()
    .from(subscribers)
    .where(
      and(eq(subscribers.environmentId, environmentId), eq(subscribers.subscriberId, subscriberId)),
    );
  return row;
}

/** Every row of every Sino table, as text, but the queue's (its retention, decision 026). */
async function everyRow(): Promise<string> {
  const tables = (await t.db.execute(sql`
    select table_name from information_schema.tables
     where table_schema = 'sino' and table_type = 'BASE TABLE' and table_name <> 'queue_jobs'
     order by table_name`)) as unknown as { rows: { table_name: string }[] };
  expect(tables.rows.map((r) => r.table_name)).toContain('execution_details');
  const texts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = (await t.db.execute(
      sql`select row_to_json(r)::text as row from ${sql.identifier('sino')}.${sql.identifier(table_name)} r`,
    )) as unknown as { rows: { row: string }[] };
    texts.push(...rows.rows.map((r) => `${table_name}: ${r.row}`));
  }
  return texts.join('\n');
}

describe('POST /v1/subscribers/:subscriberId/erase', () => {
  it('answers 401 without a key or with a wrong one, and erases nothing', async () => {
    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'keyless', firstName: 'K' } });
    for (const authorization of [null, 'ApiKey wrong-key', `Bearer ${t.credentials.apiKey}`]) {
      const r = await erase('keyless', authorization);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({
        statusCode: 401,
        message: 'API Key not found',
        error: 'Unauthorized',
      });
    }
    expect(await rowOf('keyless')).toMatchObject({ firstName: 'K' });
    expect((await initialize('keyless')).statusCode).toBe(201);
  });

  it('answers 400 for an id no subscriber can have, and erases nothing', async () => {
    const blank = erase('   ');
    const nul = t.api('POST', '/v1/subscribers/a%00b/erase');
    for (const r of [await blank, await nul]) {
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it("cannot reach another environment's subscriber: ours stays, with its inbox", async () => {
    await t.api('POST', '/v1/subscribers', {
      body: { subscriberId: 'vizinha', firstName: 'Vizinha' },
    });
    const token = await t.session('vizinha');
    const other = await addEnvironment(t);
    const r = await erase('vizinha', `ApiKey ${other.apiKey}`);
    // The other environment's own id is erased there; this one's is untouched.
    expect(r.statusCode).toBe(200);
    expect(await rowOf('vizinha')).toMatchObject({ firstName: 'Vizinha' });
    expect((await t.widget('GET', '/notifications/feed', { token })).statusCode).toBe(200);
    expect((await initialize('vizinha')).statusCode).toBe(201);
    const there = await t.api('POST', '/v1/subscribers', {
      body: { subscriberId: 'vizinha' },
      authorization: `ApiKey ${other.apiKey}`,
    });
    expect(there.statusCode).toBe(409);
  });
});

describe('an erased subscriber', () => {
  let token: string;
  let internalId: string;
  let openSocket: Socket;

  beforeAll(async () => {
    const created = await t.api('POST', '/v1/subscribers', {
      body: { ...ANA, channels: [{ providerId: 'slack', credentials: { webhookUrl: WEBHOOK } }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    internalId = created.json().data._id;
    expect(
      (
        await t.api('PUT', `/v1/subscribers/${ANA.subscriberId}/credentials`, {
          body: { providerId: 'fcm', credentials: { deviceTokens: [DEVICE] } },
        })
      ).statusCode,
    ).toBe(200);
    await t.api('POST', '/v1/subscribers', {
      body: { subscriberId: 'bruno-fica', firstName: 'Brunildo', email: 'brunildo@example.com' },
    });
    await t.api('POST', '/v1/topics', { body: { key: 'frota', name: 'Frota' } });
    await t.api('POST', '/v1/topics/frota/subscribers', {
      body: { subscribers: [ANA.subscriberId, 'bruno-fica'] },
    });
    token = await t.session(ANA.subscriberId);
    expect(
      (
        await t.widget('PATCH', '/preferences', {
          token,
          body: { preferences: [{ type: 'sms', enabled: false }] },
        })
      ).statusCode,
    ).toBe(200);

    // An in-app message and an email (into the sandbox outbox) to each of the two.
    await trigger({
      name: 'aviso',
      to: ANA.subscriberId,
      payload: { detalhe: DETALHE },
      transactionId: 'tx-aviso',
    });
    await trigger({
      name: 'aviso',
      to: 'bruno-fica',
      payload: { detalhe: 'CNH do Brunildo' },
      transactionId: 'tx-aviso-bruno',
    });
    await eventually(async () => {
      const sent = await t.db
        .select({ id: sandboxOutbox.id })
        .from(sandboxOutbox)
        .where(eq(sandboxOutbox.environmentId, t.credentials.environmentId));
      return sent.length === 2;
    }, 'both emails');
    // A reminder waiting an hour in the queue, and a step skipped by a filter on the email.
    await trigger({
      name: 'lembrete',
      to: ANA.subscriberId,
      payload: { detalhe: DETALHE },
      transactionId: 'tx-lembrete',
    });
    await trigger({ name: 'filtrado', to: ANA.subscriberId, transactionId: 'tx-filtrado' });
    await eventually(async () => {
      const rows = await t.db
        .select({ status: jobs.status, queueJobId: jobs.queueJobId })
        .from(jobs)
        .where(eq(jobs.subscriberId, internalId));
      return (
        rows.some((r) => r.status === 'delayed' && r.queueJobId) &&
        rows.some((r) => r.status === 'skipped')
      );
    }, 'the delay and the filter');
    // A provider's refusal quoting the address, as the delivery service records one.
    const [notification] = await t.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.subscriberId, internalId),
          eq(notifications.transactionId, 'tx-aviso'),
        ),
      );
    await t.db.insert(executionDetails).values({
      id: newId(),
      environmentId: t.credentials.environmentId,
      organizationId: t.credentials.organizationId,
      notificationId: notification!.id,
      subscriberId: internalId,
      transactionId: 'tx-aviso',
      channel: 'email',
      detail: `SendGrid (sendgrid) failed: 550 5.1.1 <${ANA.email}>: Recipient address rejected`,
      status: 'Failed',
      raw: { error: `550 5.1.1 <${ANA.email}>` },
    });

    const before = await everyRow();
    for (const value of PERSONAL) expect(before).toContain(value);
    const connected = await connect(token);
    expect(connected.outcome).toBe('connected');
    openSocket = connected.socket;
  });

  it('is erased: 200, and the same when asked again', async () => {
    const closed = new Promise<string>((resolve) => openSocket.once('disconnect', resolve));
    const r = await erase(ANA.subscriberId);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ data: { acknowledged: true, status: 'erased' } });
    // Its open socket is closed by the server at once.
    expect(await closed).toBe('io server disconnect');
    const again = await erase(ANA.subscriberId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ data: { acknowledged: true, status: 'erased' } });
  });

  it('leaves no row, message, preference, credential, membership or outbox copy', async () => {
    expect(await rowOf(ANA.subscriberId)).toBeUndefined();
    expect((await t.api('GET', `/v1/subscribers/${ANA.subscriberId}`)).statusCode).toBe(404);
    expect(await t.db.select().from(messages).where(eq(messages.subscriberId, internalId))).toEqual(
      [],
    );
    expect(
      await t.db
        .select()
        .from(subscriberPreferences)
        .where(eq(subscriberPreferences.subscriberId, internalId)),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(topicSubscribers)
        .where(eq(topicSubscribers.subscriberId, internalId)),
    ).toEqual([]);
    const outbox = await t.api('GET', '/v1/sandbox/outbox');
    expect(outbox.json().data.map((m: { to: string[] }) => m.to)).toEqual([
      ['brunildo@example.com'],
    ]);
  });

  it('keeps its activity without anything personal, and its waiting step canceled', async () => {
    const text = await everyRow();
    for (const value of PERSONAL) expect(text).not.toContain(value);
    const steps = await t.db
      .select({ type: jobs.type, status: jobs.status, queueJobId: jobs.queueJobId })
      .from(jobs)
      .where(eq(jobs.transactionId, 'tx-lembrete'));
    expect(steps.map((s) => [s.type, s.status]).sort()).toEqual([
      ['delay', 'canceled'],
      ['in_app', 'canceled'],
    ]);
    // Gone from the database queue too (BullMQ keeps its jobs in Redis).
    if (!process.env.TEST_SINO_REDIS_URL) {
      const queued = await t.db
        .select()
        .from(queueJobs)
        .where(sql`${queueJobs.id}::text = ${steps.find((s) => s.type === 'delay')!.queueJobId}`);
      expect(queued).toEqual([]);
    }
    const activity = await t.api('GET', '/v1/notifications?transactionId=tx-aviso');
    const [mine] = (activity.json().data as Record<string, unknown>[]).filter(
      (n) => n['_subscriberId'] === internalId,
    );
    expect(mine).toMatchObject({ payload: {}, channels: ['in_app', 'email'] });
    expect(mine).not.toHaveProperty('subscriber');
    const details = await t.db
      .select({ detail: executionDetails.detail, raw: executionDetails.raw })
      .from(executionDetails)
      .where(eq(executionDetails.subscriberId, internalId));
    expect(details.length).toBeGreaterThan(3);
    for (const d of details) expect(d.raw).toEqual({ erased: true });
    expect(details.map((d) => d.detail)).toEqual(
      expect.arrayContaining([
        'Trigger received',
        'Step skipped: [erased]',
        'SendGrid (sendgrid) failed: [erased]',
      ]),
    );
  });

  it("leaves everyone else's data as it was", async () => {
    const bruno = await rowOf('bruno-fica');
    expect(bruno).toMatchObject({ firstName: 'Brunildo' });
    const his = await t.db.select().from(messages).where(eq(messages.subscriberId, bruno!.id));
    expect(his.map((m) => m.channel).sort()).toEqual(['email', 'in_app']);
    expect(his.find((m) => m.channel === 'in_app')!.content).toBe('Olá Brunildo: CNH do Brunildo');
    const members = await t.api('GET', '/v1/topics/frota');
    expect(members.json().data.subscribers).toEqual(['bruno-fica']);
  });

  it('its token opens nothing: the feed, the counts, preferences and the socket answer 401', async () => {
    for (const path of [
      '/notifications/feed',
      '/notifications/unseen',
      '/notifications/count',
      '/preferences',
      '/organization',
    ]) {
      const r = await t.widget('GET', path, { token });
      expect(r.statusCode, path).toBe(401);
      expect(r.json()).toEqual({ statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' });
    }
    expect((await connect(token)).outcome).toBe('Unauthorized');
  });

  it('cannot start a session again, even with its valid hash (403), and gets no row', async () => {
    const r = await initialize(ANA.subscriberId);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({
      statusCode: 403,
      message: 'The subscriber was erased: no session can be started for it',
      error: 'Forbidden',
    });
    expect(await rowOf(ANA.subscriberId)).toBeUndefined();
  });

  it('is not created again by an identify (409), a bulk (failed), nor changed by PUT (404)', async () => {
    const identify = await t.api('POST', '/v1/subscribers', { body: ANA });
    expect(identify.statusCode).toBe(409);
    expect(identify.json()).toEqual({
      statusCode: 409,
      message: 'Subscriber ana-apagada was erased and cannot be created again',
      error: 'Conflict',
    });
    const bulk = await t.api('POST', '/v1/subscribers/bulk', {
      body: { subscribers: [ANA, { subscriberId: 'bulk-nova', firstName: 'Nova' }] },
    });
    expect(bulk.json().data).toEqual({
      created: [{ subscriberId: 'bulk-nova' }],
      updated: [],
      failed: [
        {
          subscriberId: ANA.subscriberId,
          message: 'Subscriber ana-apagada was erased and cannot be created again',
        },
      ],
    });
    expect(
      (await t.api('PUT', `/v1/subscribers/${ANA.subscriberId}`, { body: { firstName: 'X' } }))
        .statusCode,
    ).toBe(404);
    expect(await rowOf(ANA.subscriberId)).toBeUndefined();
  });

  it('is named by triggers that are acknowledged and create nothing: no subscriber, no message', async () => {
    const bruno = await rowOf('bruno-fica');
    const before = await t.db.select().from(messages).where(eq(messages.subscriberId, bruno!.id));
    const answers = [
      await trigger({ name: 'aviso', to: ANA.subscriberId, transactionId: 'tx-depois-1' }),
      await trigger({
        name: 'aviso',
        to: [{ ...ANA, firstName: 'Anabela' }],
        payload: { detalhe: DETALHE },
        transactionId: 'tx-depois-2',
      }),
      // As the actor of someone else's notification: that one goes, with no actor.
      await trigger({
        name: 'aviso',
        to: 'bruno-fica',
        actor: ANA,
        payload: { detalhe: 'para o Bruno' },
        transactionId: 'tx-depois-3',
      }),
    ];
    for (const a of answers) expect(a).toMatchObject({ acknowledged: true, status: 'processed' });
    await eventually(async () => {
      const his = await t.db.select().from(messages).where(eq(messages.subscriberId, bruno!.id));
      return his.length === before.length + 2;
    }, "Bruno's notification");

    // Each erased recipient's steps, canceled, the first saying why.
    for (const transactionId of ['tx-depois-1', 'tx-depois-2']) {
      await eventually(async () => {
        const rows = await t.db
          .select({ status: jobs.status })
          .from(jobs)
          .where(eq(jobs.transactionId, transactionId));
        return rows.length === 2 && rows.every((r) => r.status === 'canceled');
      }, `the steps of ${transactionId}`);
      const activity = await t.api('GET', `/v1/notifications?transactionId=${transactionId}`);
      const [record, ...more] = activity.json().data as {
        payload: unknown;
        subscriber?: unknown;
        jobs: { status: string; executionDetails: { detail: string; status: string }[] }[];
      }[];
      expect(more).toEqual([]);
      expect(record).toMatchObject({ payload: {} });
      expect(record!.subscriber).toBeUndefined();
      expect(record!.jobs.map((j) => j.status)).toEqual(['canceled', 'canceled']);
      expect(record!.jobs[0]!.executionDetails.map((d) => [d.detail, d.status])).toEqual([
        ['Trigger received', 'Success'],
        ['Subscriber was erased: nothing is sent', 'Warning'],
      ]);
    }
    expect(await rowOf(ANA.subscriberId)).toBeUndefined();
    const fromBruno = await t.db
      .select({ actorSubscriberId: notifications.actorSubscriberId })
      .from(notifications)
      .where(eq(notifications.transactionId, 'tx-depois-3'));
    expect(fromBruno).toEqual([{ actorSubscriberId: null }]);
    // Nothing of hers came back with them.
    const text = await everyRow();
    for (const value of PERSONAL) expect(text).not.toContain(value);
  });
});

describe('ids never seen, and Novu 0.24 DELETE', () => {
  it('erasing an id Sino never saw answers 200 and blocks it all the same', async () => {
    const r = await erase('nunca-vista');
    expect(r.statusCode).toBe(200);
    expect(await rowOf('nunca-vista')).toBeUndefined();
    expect((await initialize('nunca-vista')).statusCode).toBe(403);
    expect(await rowOf('nunca-vista')).toBeUndefined();
  });

  it('DELETE keeps its meaning: a later trigger and a session create the subscriber again', async () => {
    await t.api('POST', '/v1/subscribers', { body: { subscriberId: 'volta', firstName: 'Volta' } });
    expect((await t.api('DELETE', '/v1/subscribers/volta')).statusCode).toBe(200);
    await trigger({ name: 'filtrado', to: 'volta', transactionId: 'tx-volta' });
    await eventually(async () => (await rowOf('volta')) !== undefined, 'the subscriber again');
    expect((await t.api('DELETE', '/v1/subscribers/volta')).statusCode).toBe(200);
    expect((await initialize('volta')).statusCode).toBe(201);
  });
});
