import type { LightMyRequestResponse } from 'fastify';
import type { Database } from '@locadora/db';
import { topology } from '../../../test/topology.js';
import { createSinoTestApp, type SinoTestApp } from './harness.js';

export type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'body' | 'json' | 'headers'>;

/**
 * A Sino reached at a URL, for the suites that drive it as a customer's code does (the
 * published Novu clients): the test app of this process listening on a port or, with
 * TEST_TOPOLOGY (or TEST_SINO_TOPOLOGY) `cluster` or `halves`, the whole server as processes
 * behind the local balancer (createSinoTestApp, decisions 039 and 041). Either way the suite
 * checks what happened in the database the server uses.
 */
export interface ListeningSino {
  /** Where clients connect: the app's port, or the balancer. */
  url: string;
  db: Database;
  credentials: SinoTestApp['credentials'];
  /** The server API with the environment's key (or another `authorization`), over HTTP. */
  api: SinoTestApp['api'];
  subscriberHash(subscriberId: string): string;
  /** Every log line the server wrote so far (every node's). */
  logs: string[];
  close(): Promise<void>;
}

export const sinoTopology = topology;

export async function startListeningSino(): Promise<ListeningSino> {
  const t = await createSinoTestApp();
  let url = t.url;
  if (!url) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}`;
  }
  return {
    url,
    db: t.db,
    credentials: t.credentials,
    api: t.api,
    subscriberHash: (subscriberId) => t.subscriberHash(subscriberId),
    logs: t.logs,
    close: () => t.close(),
  };
}
