import { describe, expect, it } from 'vitest';
import { discord } from '../../src/adapters/discord/index.js';
import { aChatMessage, classOnlyWords, contextFor, usePeer } from './fixtures.js';

describe('Discord', () => {
  const peer = usePeer();

  const token = 'kX9vQm2LrT7wZp4Ns8Jd1Hc6Yb3Fg5Ae0UiOoPl';
  const hook = (query = '') => `${peer.url}/api/webhooks/1234567890/${token}${query}`;
  const adapter = () => discord.create(contextFor('http://127.0.0.1:9', {}));
  const send = () =>
    adapter()
      .send(aChatMessage(hook()))
      .catch((e: unknown) => e);

  it('executes the webhook with wait=true, keeping its own query, and reads the message id', async () => {
    peer.reply({
      status: 200,
      json: { id: '1190000000000000001', content: 'Nova avaliação recebida', timestamp: 'x' },
    });
    const result = await adapter().send(aChatMessage(hook('?thread_id=42')));
    expect(result).toEqual({ id: '1190000000000000001', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url.pathname).toBe(`/api/webhooks/1234567890/${token}`);
    expect(Object.fromEntries(req!.url.searchParams)).toEqual({ thread_id: '42', wait: 'true' });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({ content: 'Nova avaliação recebida' });
  });

  it('fails retryable on a 429 (keeping Retry-After) and on a 502', async () => {
    peer.reply(
      {
        status: 429,
        headers: { 'retry-after': '2' },
        json: { message: 'You are being rate limited.', retry_after: 1.5, global: false },
      },
      { status: 502, body: 'Bad Gateway' },
    );
    expect(await send()).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 2000 });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 502 });
  });

  it('fails permanent on a refused message, without the webhook token', async () => {
    peer.reply({
      status: 400,
      json: { message: `Cannot send an empty message (${token})`, code: 50006 },
    });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 400 });
    // The subscriber chose the URL: its answer is not shown, only its status.
    expect((error as Error).message).toBe(classOnlyWords(400));
    expect((error as Error).message).not.toContain(token);
  });

  it('fails recipient when the webhook is unknown or its token invalid', async () => {
    peer.reply(
      { status: 404, json: { message: 'Unknown Webhook', code: 10015 } },
      { status: 401, json: { message: 'Invalid Webhook Token', code: 50027 } },
    );
    expect(await send()).toMatchObject({ kind: 'recipient', status: 404 });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 401 });
  });
});
