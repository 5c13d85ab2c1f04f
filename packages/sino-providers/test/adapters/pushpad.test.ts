import { describe, expect, it } from 'vitest';
import { pushpad } from '../../src/adapters/pushpad/index.js';
import { aPush, contextFor, usePeer } from './fixtures.js';

describe('Pushpad', () => {
  const peer = usePeer();

  const apiKey = '5374d7dfeffa2eb49965624ba7596a09';
  const adapter = () => pushpad.create(contextFor(peer.url, { apiKey, applicationId: '763' }));
  const send = () =>
    adapter()
      .send(aPush())
      .catch((e: unknown) => e);

  it('posts the notification to the uids with the Token scheme and reads its id', async () => {
    peer.reply({ status: 201, json: { id: 197123, scheduled: 2, uids: ['ana', 'ana-2'] } });
    const result = await adapter().send(aPush({ target: ['ana', 'ana-2'] }));
    expect(result).toEqual({ id: '197123', status: 201 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/v1/projects/763/notifications');
    expect(req!.headers.authorization).toBe(`Token token="${apiKey}"`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.accept).toBe('application/json');
    expect(req!.json()).toEqual({
      notification: { body: 'Seu carro espera por você', title: 'Reserva confirmada' },
      uids: ['ana', 'ana-2'],
    });
  });

  it('fails retryable on a 503', async () => {
    peer.reply({ status: 503, body: 'unavailable' });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 503 });
  });

  it('fails permanent on a bad token, without the token', async () => {
    peer.reply({ status: 401, json: { error: `Invalid token ${apiKey}` } });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 401 });
    expect((error as Error).message).not.toContain(apiKey);
  });

  it('fails recipient when none of the uids is subscribed', async () => {
    peer.reply({ status: 201, json: { id: 197124, scheduled: 0, uids: [] } });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 201 });
    const none = await adapter()
      .send(aPush({ target: [] }))
      .catch((e: unknown) => e);
    expect(none).toMatchObject({ kind: 'recipient' });
    expect(peer.requests).toHaveLength(1);
  });

  it('checks the token and project by reading the project', async () => {
    peer.reply({ status: 200, json: { id: 763, name: 'Locadora' } }, { status: 404, json: {} });
    await expect(adapter().check!()).resolves.toEqual({
      ok: true,
      message: 'The token and project work',
    });
    expect(peer.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/projects/763' });
    expect(peer.requests[0]!.headers.authorization).toBe(`Token token="${apiKey}"`);
    await expect(adapter().check!()).resolves.toMatchObject({ ok: false });
  });
});
