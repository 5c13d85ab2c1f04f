// @module-tag one-process: restarts the app under other keys on kept storage (TEST_TOPOLOGY, decision 041)
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '@locadora/db';
import { createTestDatabase } from '@locadora/db/testing';
import { startHttpPeer, type HttpPeer } from '@sino/providers/testing';
import { apiKeys, executionDetails, integrations, serverSecrets } from '../src/db/schema.js';
import { createSecretBox, keyIdOf } from '../src/secret-box.js';
import { describeUnopened } from '../src/sealed/reseal.js';
import { createSealedRepository } from '../src/sealed/repository.js';
import type { DevelopmentCredentials } from '../src/index.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

/**
 * Decision 038: SINO_ENCRYPTION_KEY rotates without losing a sealed value. Sino is started
 * three times on one database, as an operator restarts it: under key A; under B with A as
 * previous (everything opens; the re-seal moves everything to B); under B alone.
 */
const KEY_A = 'sino-rotation-key-A-0123456789abcdefghijkl';
const KEY_B = 'sino-rotation-key-B-0123456789abcdefghijkl';
const SG_LEGACY = 'SG.rotation-legacy-key-0123456789-L3gy';
const SG_NEW = 'SG.rotation-new-key-0123456789-N3wK';

const database = await createTestDatabase();
let handle: DatabaseHandle;
let peer: HttpPeer;
let credentials: DevelopmentCredentials | undefined;
let t: SinoTestApp;

/** Sino on the shared database, as a restart with these keys. */
async function start(encryptionKey: string, previousEncryptionKeys?: string[]) {
  const app = await createSinoTestApp(
    {
      encryptionKey,
      ...(previousEncryptionKeys && { previousEncryptionKeys }),
      delivery: { baseUrls: { sendgrid: peer.url } },
    },
    { url: database.url, dataDir: 'memory://', handle, ...(credentials && { credentials }) },
  );
  credentials = app.credentials;
  return app;
}

/** A value sealed as Sino sealed before key ids (`v1`), under `secret`. */
function sealedAsV1(secret: string, plaintext: string): string {
  const key = createHash('sha256').update(secret).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.')}`;
}

/** Every sealed value in the database, as stored. */
async function everySealed(app: SinoTestApp): Promise<string[]> {
  const credentialRows = await app.db
    .select({ sealed: integrations.credentialsCiphertext })
    .from(integrations)
    .where(isNotNull(integrations.credentialsCiphertext));
  const keyRows = await app.db.select({ sealed: apiKeys.keyCiphertext }).from(apiKeys);
  const secretRows = await app.db.select({ sealed: serverSecrets.sealed }).from(serverSecrets);
  return [...credentialRows, ...keyRows, ...secretRows].map((r) => r.sealed!);
}

const sendgrid = (identifier: string, apiKey: string) => ({
  providerId: 'sendgrid',
  channel: 'email',
  identifier,
  credentials: { apiKey, from: 'reservas@locadora.example', senderName: 'Locadora' },
  active: true,
});

type Wire = { _id: string; identifier: string; credentials: Record<string, unknown> };

async function eventually<T>(check: () => Promise<T | false | undefined>, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sessionStatus = async (app: SinoTestApp, subscriberId: string) =>
  (
    await app.widget('POST', '/session/initialize', {
      body: {
        applicationIdentifier: app.credentials.applicationIdentifier,
        subscriberId,
        hmacHash: app.subscriberHash(subscriberId),
      },
    })
  ).statusCode;

let legacyId: string;
let newId: string;

beforeAll(async () => {
  peer = await startHttpPeer();
  handle = await openDatabase({ url: database.url, dataDir: 'memory://' });
});
afterAll(async () => {
  await t?.close();
  await handle?.close();
  await database.drop();
  await peer?.close();
});

describe('a rotation of the encryption key', () => {
  it('under key A: sealed values name A, and one stored before key ids is there too', async () => {
    t = await start(KEY_A);
    const legacy = await t.api('POST', '/v1/integrations', {
      body: sendgrid('sendgrid-legacy', SG_LEGACY),
    });
    expect(legacy.statusCode).toBe(201);
    legacyId = legacy.json<{ data: Wire }>().data._id;
    const fresh = await t.api('POST', '/v1/integrations', {
      body: sendgrid('sendgrid-new', SG_NEW),
    });
    expect(fresh.statusCode).toBe(201);
    newId = fresh.json<{ data: Wire }>().data._id;
    // As an older version stored them: the first integration's credentials and the API key.
    await t.db
      .update(integrations)
      .set({
        credentialsCiphertext: sealedAsV1(
          KEY_A,
          JSON.stringify(sendgrid('', SG_LEGACY).credentials),
        ),
      })
      .where(eq(integrations.id, legacyId));
    await t.db
      .update(apiKeys)
      .set({ keyCiphertext: sealedAsV1(KEY_A, t.credentials.apiKey) })
      .where(eq(apiKeys.environmentId, t.credentials.environmentId));
    expect((await t.api('POST', '/v1/subscribers/erased-before/erase')).statusCode).toBe(200);

    const sealed = await everySealed(t);
    expect(sealed.filter((s) => s.startsWith('v1.'))).toHaveLength(2);
    expect(sealed.filter((s) => s.startsWith(`v2.${keyIdOf(KEY_A)}.`)).length).toBeGreaterThan(1);
    await t.close();
  });

  it('under B with A previous: everything opens, and the re-seal moves everything to B', async () => {
    t = await start(KEY_B, [KEY_A]);
    const listed = (await t.api('GET', '/v1/integrations')).json<{ data: Wire[] }>().data;
    expect(listed.find((i) => i._id === legacyId)?.credentials.apiKey).toMatch(/L3gy$/);
    expect(listed.find((i) => i._id === newId)?.credentials.apiKey).toMatch(/N3wK$/);
    // The API key opens (the subscriber's hash is checked with it); the tombstone is found.
    expect(await sessionStatus(t, 'reader')).toBe(201);
    expect(await sessionStatus(t, 'erased-before')).toBe(403);

    const report = await t.app.sino.resealing.reseal();
    expect(report).toMatchObject({ keyId: keyIdOf(KEY_B), unopened: [] });
    const sealed = await everySealed(t);
    expect(report.resealed).toBe(sealed.length);
    expect(sealed.every((s) => s.startsWith(`v2.${keyIdOf(KEY_B)}.`))).toBe(true);
    expect((await t.app.sino.resealing.reseal()).resealed).toBe(0);
    await t.close();
  });

  it('under B alone: credentials, API keys and tombstones still open, and deliveries use them', async () => {
    t = await start(KEY_B);
    expect(await sessionStatus(t, 'reader')).toBe(201);
    expect(await sessionStatus(t, 'erased-before')).toBe(403);
    const workflow = await t.api('POST', '/v1/workflows', {
      body: {
        name: 'rotated',
        identifier: 'rotated',
        active: true,
        steps: [{ template: { type: 'email', subject: 'Olá', content: '<p>Olá</p>' } }],
      },
    });
    expect(workflow.statusCode).toBe(201);
    peer.reply({ status: 202, headers: { 'x-message-id': 'sg-rotated' } });
    const trigger = await t.api('POST', '/v1/events/trigger', {
      body: { name: 'rotated', to: { subscriberId: 'reader', email: 'reader@example.com' } },
    });
    expect(trigger.statusCode).toBe(201);
    const request = await eventually(async () => peer.requests[0]);
    // The primary is the integration sealed before key ids, re-sealed under B since.
    expect(request.headers.authorization).toBe(`Bearer ${SG_LEGACY}`);
  });
});

describe('the re-seal and the API writing at once', () => {
  it('writes a re-sealed value only where it is still what was read', async () => {
    const repo = createSealedRepository(t.db);
    const [row] = await t.db
      .select({ sealed: integrations.credentialsCiphertext })
      .from(integrations)
      .where(eq(integrations.id, legacyId));
    // Read before the API wrote new credentials: its re-seal must not put the old ones back.
    const written = await repo.replace('integration', [
      { id: legacyId, from: 'v2.read-before-the-write', to: 'v2.the-old-credentials' },
    ]);
    expect(written).toBe(0);
    const [after] = await t.db
      .select({ sealed: integrations.credentialsCiphertext })
      .from(integrations)
      .where(eq(integrations.id, legacyId));
    expect(after!.sealed).toBe(row!.sealed);
  });
});

describe('a value under a key no longer configured', () => {
  const box = createSecretBox(KEY_A);

  beforeAll(async () => {
    // The first of the channel: deliveries try it, then fail over.
    expect((await t.api('POST', `/v1/integrations/${newId}/set-primary`)).statusCode).toBe(200);
    // Written under A by a node the rotation had not reached yet, after the re-seal.
    await t.db
      .update(integrations)
      .set({
        credentialsCiphertext: box.seal(JSON.stringify(sendgrid('', SG_NEW).credentials)),
      })
      .where(eq(integrations.id, newId));
  });

  it('is listed with the others, its credentials empty and why named (key id, never a secret)', async () => {
    const r = await t.api('GET', '/v1/integrations');
    expect(r.statusCode).toBe(200);
    const listed = r.json<{
      data: { _id: string; credentials: Record<string, unknown>; credentialsError?: string }[];
    }>().data;
    // The other integration answers as usual: one value that cannot be opened takes nothing
    // else down, and whoever fixes it finds it in the list.
    const other = listed.find((i) => i._id !== newId)!;
    expect(other.credentialsError).toBeUndefined();
    expect(Object.keys(other.credentials).length).toBeGreaterThan(0);
    const unopened = listed.find((i) => i._id === newId)!;
    expect(unopened.credentials).toEqual({});
    const message = unopened.credentialsError!;
    expect(message).toBe(
      `Cannot open the credentials of integration sendgrid-new (sendgrid, id ${newId}): it was sealed under an encryption key this server does not have (key id ${keyIdOf(KEY_A)}); add that key to SINO_ENCRYPTION_KEYS_PREVIOUS, or enter the value again`,
    );
    for (const secret of [KEY_A, KEY_B, SG_NEW, SG_LEGACY]) {
      expect(message).not.toContain(secret);
      expect(t.logs.join('\n')).not.toContain(secret);
    }
    expect(t.logs.some((l) => l.includes('sealed value not opened') && l.includes(newId))).toBe(
      true,
    );
  });

  it('is named in the re-seal report, and left as it is', async () => {
    const report = await t.app.sino.resealing.reseal();
    expect(report.resealed).toBe(0);
    expect(report.unopened).toEqual([
      {
        what: `integration sendgrid-new (sendgrid) of environment ${t.credentials.environmentId}`,
        keyId: keyIdOf(KEY_A),
        damaged: false,
      },
    ]);
    expect(describeUnopened(report)).toBe(
      `1 sealed value opens under none of the configured encryption keys (1 key id ${keyIdOf(KEY_A)}): integration sendgrid-new (sendgrid) of environment ${t.credentials.environmentId}. Add the key they were sealed with to SINO_ENCRYPTION_KEYS_PREVIOUS, or enter them again`,
    );
  });

  it('fails its deliveries naming it, and another integration delivers', async () => {
    peer.requests.splice(0);
    peer.reply({ status: 202, headers: { 'x-message-id': 'sg-failover' } });
    const trigger = await t.api('POST', '/v1/events/trigger', {
      body: {
        name: 'rotated',
        to: { subscriberId: 'reader', email: 'reader@example.com' },
        transactionId: 'tx-unopened',
      },
    });
    expect(trigger.statusCode).toBe(201);
    const failed = await eventually(async () => {
      const [row] = await t.db
        .select()
        .from(executionDetails)
        .where(
          and(
            eq(executionDetails.transactionId, 'tx-unopened'),
            eq(executionDetails.status, 'Failed'),
          ),
        );
      return row;
    });
    expect(failed.detail).toContain(
      `failed: Cannot open the credentials of integration sendgrid-new (sendgrid, id ${newId})`,
    );
    expect(failed.detail).not.toContain(SG_NEW);
    const request = await eventually(async () => peer.requests[0]);
    expect(request.headers.authorization).toBe(`Bearer ${SG_LEGACY}`);
  });

  it('takes its credentials entered again, under the current key', async () => {
    const r = await t.api('PUT', `/v1/integrations/${newId}`, {
      body: { credentials: sendgrid('', SG_NEW).credentials },
    });
    expect(r.statusCode).toBe(200);
    expect((await t.api('GET', '/v1/integrations')).statusCode).toBe(200);
    const [row] = await t.db
      .select({ sealed: integrations.credentialsCiphertext })
      .from(integrations)
      .where(eq(integrations.id, newId));
    expect(row!.sealed!.startsWith(`v2.${keyIdOf(KEY_B)}.`)).toBe(true);
  });
});
