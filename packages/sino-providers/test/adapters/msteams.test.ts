import { describe, expect, it } from 'vitest';
import { msteams } from '../../src/adapters/msteams/index.js';
import { aChatMessage, classOnlyWords, contextFor, usePeer } from './fixtures.js';

describe('MS Teams', () => {
  const peer = usePeer();

  const secret = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
  const hook = () => `${peer.url}/webhookb2/tenant@org/IncomingWebhook/${secret}/owner`;
  const adapter = () => msteams.create(contextFor('http://127.0.0.1:9', {}));
  const send = () =>
    adapter()
      .send(aChatMessage(hook()))
      .catch((e: unknown) => e);

  it('posts plain content as { text } and reads request-id', async () => {
    peer.reply({ status: 200, headers: { 'request-id': 'teams-req-1' }, body: '1' });
    const result = await adapter().send(aChatMessage(hook()));
    expect(result).toEqual({ id: 'teams-req-1', status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/webhookb2/tenant@org/IncomingWebhook/${secret}/owner`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({ text: 'Nova avaliação recebida' });
  });

  it('posts JSON content (a card) as it is', async () => {
    const card = {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            version: '1.4',
            body: [{ type: 'TextBlock', text: 'Nova avaliação' }],
          },
        },
      ],
    };
    peer.reply({ status: 202, body: '' });
    const result = await adapter().send(aChatMessage(hook(), { content: JSON.stringify(card) }));
    expect(result).toEqual({ status: 202 });
    expect(peer.requests[0]!.json()).toEqual(card);
  });

  it('reads a refusal buried in a 200: throttled is retryable, a bad card permanent', async () => {
    const buried = (status: number) =>
      `Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error ${status} with ContextId tcid=0,server=msgapi,cv=x.0..`;
    peer.reply({ status: 200, body: buried(429) }, { status: 200, body: buried(400) });
    const throttled = await send();
    expect(throttled).toMatchObject({ kind: 'retryable', status: 429 });
    // The subscriber chose the URL: the status Teams gave, not its words.
    expect((throttled as Error).message).toBe(classOnlyWords(429));
    expect(await send()).toMatchObject({ kind: 'permanent', status: 400 });
  });

  it('fails retryable on a 5xx, permanent on a 400 without the URL secret', async () => {
    peer.reply(
      { status: 503, body: 'unavailable' },
      { status: 400, body: `Bad payload received by generic incoming webhook ${secret}` },
    );
    expect(await send()).toMatchObject({ kind: 'retryable', status: 503 });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 400 });
    expect((error as Error).message).toBe(classOnlyWords(400));
    expect((error as Error).message).not.toContain(secret);
  });

  it('fails recipient when the webhook was removed', async () => {
    peer.reply({ status: 404, body: 'Not Found' });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 404 });
  });
});
