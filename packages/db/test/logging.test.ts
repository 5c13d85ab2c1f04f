import { describe, expect, it } from 'vitest';
import { requestForLog } from '../src/index.js';

describe('requestForLog', () => {
  it('logs a routed request by its route and the names of its query parameters', () => {
    expect(
      requestForLog({
        method: 'GET',
        url: '/v1/subscribers/ana%40example.com?emails=ana@example.com&page=1&emails=b@c.d',
        routeOptions: { url: '/v1/subscribers/:subscriberId' },
        host: 'localhost',
        ip: '127.0.0.1',
        socket: { remotePort: 5000 },
      }),
    ).toEqual({
      method: 'GET',
      url: '/v1/subscribers/:subscriberId',
      query: 'emails,page',
      host: 'localhost',
      remoteAddress: '127.0.0.1',
      remotePort: 5000,
    });
  });

  it('keeps the path of a request no route took, without its query', () => {
    const logged = requestForLog({ method: 'GET', url: '/nowhere?busca=52998224725' });
    expect(logged).toMatchObject({ url: '/nowhere', query: 'busca' });
    expect(JSON.stringify(logged)).not.toContain('52998224725');
  });
});
