import { describe, expect, it } from 'vitest';
import { ryver } from '../../src/adapters/ryver/index.js';
import { aChatMessage, contextFor, usePeer } from './fixtures.js';

describe('Ryver', () => {
  const peer = usePeer();

  const hookId = '8xtO4GzWw8PQGAIbc12d';
  const hook = () => `${peer.url}/application/webhook/${hookId}`;
  const adapter = () => ryver.create(contextFor('http://127.0.0.1:9', {}));
  const send = () =>
    adapter()
      .send(aChatMessage(hook()))
      .catch((e: unknown) => e);

  it('posts the Ryver-format { body } to the hook', async () => {
    peer.reply({ status: 200, json: {} });
    const result = await adapter().send(aChatMessage(hook()));
    expect(result).toEqual({ status: 200 });
    const [req] = peer.requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe(`/application/webhook/${hookId}`);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.json()).toEqual({ body: 'Nova avaliação recebida' });
  });

  it('fails retryable on a 500', async () => {
    peer.reply({ status: 500, body: 'error' });
    expect(await send()).toMatchObject({ kind: 'retryable', status: 500 });
  });

  it('fails permanent on a 400, without the hook id', async () => {
    peer.reply({ status: 400, body: `bad payload for ${hookId}` });
    const error = await send();
    expect(error).toMatchObject({ kind: 'permanent', status: 400 });
    expect((error as Error).message).not.toContain(hookId);
  });

  it('fails recipient when the hook is gone', async () => {
    peer.reply({ status: 404, body: 'Not Found' });
    expect(await send()).toMatchObject({ kind: 'recipient', status: 404 });
  });
});
