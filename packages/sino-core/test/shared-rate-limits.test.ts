import { afterEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { startTcpProxy, type TcpProxy } from '@locadora/db/testing';
import { redisUrl, startInstallation, type Installation } from './nodes.js';
import type { SinoTestApp } from './harness.js';

// Rate limits of one installation on two nodes sharing a Redis (acceptance 4 of issue 18).
// Starting two nodes takes most of each test's time on a busy machine.
const NODES_TIMEOUT_MS = 120_000;

const LIMIT = 8; // Under 10 a second Novu's 10 % burst adds nothing: the window holds 8.

let installation: Installation | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.resume();
  await installation?.close();
  await proxy?.close();
  installation = undefined;
  proxy = undefined;
});

const list = (node: SinoTestApp) => node.api('GET', '/v1/subscribers');

/**
 * Runs `requests` inside one fixed one-second window: on a machine slow enough to take most of
 * a second, the next window could begin midway, so the run is made again in a fresh window.
 */
async function inOneWindow<T>(requests: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    // The next window: the last one has lapsed.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const started = Date.now();
    const answers = await requests();
    if (Date.now() - started < 600 || attempt === 3) return answers;
  }
}

describe('rate limits shared on Redis by the nodes of an installation', () => {
  it(
    'a limit of N a second holds across both nodes: the N+1th request on either is 429',
    async () => {
      installation = await startInstallation(2, {
        redisUrl,
        rateLimit: { generalPerSecond: LIMIT },
      });
      const [a, b] = installation.nodes as [SinoTestApp, SinoTestApp];

      const answers = await inOneWindow(async () => {
        const sent: LightMyRequestResponse[] = [];
        // Alternately on each node: one count, whichever node answers.
        for (let i = 0; i < LIMIT; i++) sent.push(await list(i % 2 === 0 ? a : b));
        sent.push(await list(a), await list(b));
        return sent;
      });
      const allowed = answers.slice(0, LIMIT);
      expect(allowed.map((r) => r.statusCode)).toEqual(Array(LIMIT).fill(200));
      // Each answer counts what both nodes let through.
      expect(allowed.map((r) => Number(r.headers['ratelimit-remaining']))).toEqual(
        Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i),
      );
      for (const refused of answers.slice(LIMIT)) {
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({
          statusCode: 429,
          message: 'API rate limit exceeded',
          error: 'Too Many Requests',
        });
        expect(refused.headers['ratelimit-limit']).toBe(String(LIMIT));
        expect(refused.headers['ratelimit-remaining']).toBe('0');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    },
    NODES_TIMEOUT_MS,
  );

  it(
    'bursts at once on both nodes: exactly the limit is let through',
    async () => {
      installation = await startInstallation(2, {
        redisUrl,
        rateLimit: { generalPerSecond: LIMIT },
      });
      const [a, b] = installation.nodes as [SinoTestApp, SinoTestApp];
      const answers = await inOneWindow(() =>
        Promise.all(Array.from({ length: 3 * LIMIT }, (_, i) => list(i % 2 === 0 ? a : b))),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(LIMIT);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(2 * LIMIT);
    },
    NODES_TIMEOUT_MS,
  );

  it(
    'Redis stalled: requests are not held, each node counts on its own, and Redis counts again once back',
    async () => {
      proxy = await startTcpProxy({
        host: new URL(redisUrl).hostname,
        port: Number(new URL(redisUrl).port || 6379),
      });
      installation = await startInstallation(1, {
        redisUrl: proxy.urlFor(redisUrl),
        redisCommandTimeoutMs: 5000,
        rateLimit: { generalPerSecond: 3 },
      });
      const [node] = installation.nodes as [SinoTestApp];
      expect((await list(node)).statusCode).toBe(200);

      proxy.stall();
      const started = Date.now();
      const answers: LightMyRequestResponse[] = [];
      for (let i = 0; i < 5; i++) answers.push(await list(node));
      // One wait of at most half a second for the first check, none for the others.
      expect(Date.now() - started).toBeLessThan(2000);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429, 429]);
      expect(node.logs.some((l) => l.includes('rate limits: Redis did not answer'))).toBe(true);

      await proxy.resume();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await expect.poll(async () => (await list(node)).statusCode).toBe(200);
      await expect
        .poll(() => node.logs.some((l) => l.includes('rate limits: counted on Redis again')))
        .toBe(true);
    },
    NODES_TIMEOUT_MS,
  );
});
