import { describe, expect, it } from 'vitest';
import { mattermost } from '../../src/adapters/mattermost/index.js';
import { aChatMessage, classOnlyWords, contextFor, usePeer } from './fixtures.js';

describe('Mattermost', () => {
  const peer = usePeer();

  const hookId = 'xq7f3kz9u7gm5r1b4tws8yd6ah';
  const hook = () => `${peer.url}/hooks/${hookId}`;
  const adapter = () => mattermost.create(contextFor('http://127.0.0.1:9', {}));
  const send = () =>
    adapter()
      .send(aChatMessage(hook()))
      .catch((e: unknown) => e);

  it('posts { text, channel } to the hook and reads X-Request-Id', async () => {
    peer.reply({ status: 200, headers: { 'x-request-id': 'mm-req-1' }, body: 'ok' });
    const result = await adapter().send(aChatMessage(hook(), { channel: 'town-square' }));
    expect(result).toEqual({ id: 'mm-req-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/hooks/${hookId}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({ text: 'Nova avaliação recebida', channel: 'town-square' });
  });

  it('leaves the channel to the hook when the subscriber gave none', async () => {
    peer.reply({ status: 200, body: 'ok' });
    await adapter().send(aChatMessage(hook()));
    expect(peer.requests[0]!.json()).toEqual({ text: 'Nova avaliação recebida' });
  });

  it('fails retryable on a 503', async () => {
    peer.reply({ status: 503, body: 'unavailable' });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 503 });
  });

  it('fails permanent on an unreadable payload, without the hook id', async () => {
    peer.reply({
      status: 400,
      json: {
        id: 'api.webhook.incoming.invalid_payload',
        message: `Unable to parse incoming data for hook ${hookId}`,
        status_code: 400,
      },
    });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 400 });
    // The subscriber chose the URL: its answer is not shown, only its status.
    expect((error as Error).message).toBe(classOnlyWords(400));
    expect((error as Error).message).not.toContain(hookId);
  });

  it('fails recipient when the hook was deleted or incoming hooks are disabled', async () => {
    peer.reply(
      {
        status: 400,
        json: { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.' },
      },
      {
        status: 501,
        json: { id: 'web.incoming_webhook.disabled.app_error', message: 'Disabled.' },
      },
      { status: 404, body: 'Not Found' },
    );
    expect(await send()).toMatchObject({ kind: 'recipient', status: 400 });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 501 });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 404 });
  });
});
