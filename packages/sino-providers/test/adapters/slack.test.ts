import { describe, expect, it } from 'vitest';
import { slack } from '../../src/adapters/slack/index.js';
import { aChatMessage, classOnlyWords, contextFor, usePeer } from './fixtures.js';

describe('Slack', () => {
  const peer = usePeer();

  const token = 'Q3l8Yb2vJqW4p0xZ9mN1kR7c';
  const hook = () => `${peer.url}/services/T0001/B0002/${token}`;
  // The OAuth app's credentials are not used to send; the context's base URL does not apply.
  const adapter = () =>
    slack.create(
      contextFor('http://127.0.0.1:9', {
        applicationId: 'A0001',
        clientId: '1.2',
        secretKey: 'slack-client-secret',
      }),
    );
  const send = (over = {}) =>
    adapter()
      .send(aChatMessage(hook(), over))
      .catch((e: unknown) => e);

  it("posts { text } to the subscriber's webhook URL and reads x-slack-req-id", async () => {
    peer.reply({ status: 200, headers: { 'x-slack-req-id': 'req-1' }, body: 'ok' });
    const result = await adapter().send(aChatMessage(hook(), { channel: '#reservas' }));
    expect(result).toEqual({ id: 'req-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/services/T0001/B0002/${token}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.json()).toEqual({ text: 'Nova avaliação recebida' });
  });

  it('fails retryable on rollup_error (500) and on a 429', async () => {
    peer.reply(
      { status: 500, body: 'rollup_error' },
      { status: 429, headers: { 'retry-after': '3' } },
    );
    expect(await send()).toMatchObject({ kind: 'retryable', status: 500 });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 3000 });
  });

  it('fails permanent on invalid_payload, naming its status only, neither the URL nor its token', async () => {
    peer.reply({ status: 400, body: `invalid_payload for /services/T0001/B0002/${token}` });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 400 });
    // The subscriber chose the URL: its answer is not shown, only its status.
    expect((error as Error).message).toBe(classOnlyWords(400));
    expect((error as Error).message).not.toContain(token);
    expect((error as Error).message).not.toContain(peer.url);
  });

  it("fails recipient when the hook or its channel is gone: the subscriber's own problem", async () => {
    peer.reply(
      { status: 404, body: 'no_service' },
      { status: 410, body: 'channel_is_archived' },
      { status: 403, body: 'action_prohibited' },
    );
    expect(await send()).toMatchObject({ kind: 'recipient', status: 404 });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 410 });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 403 });
    const malformed = await adapter()
      .send(aChatMessage('not a url'))
      .catch((e: unknown) => e);
    expect(malformed).toMatchObject({ kind: 'recipient' });
  });

  it('fails retryable when the connection drops', async () => {
    peer.reply({ drop: true });
    const error = await send();
    expect(error).toMatchObject({ kind: 'retryable' });
    expect((error as Error).message).not.toContain(token);
  });
});
