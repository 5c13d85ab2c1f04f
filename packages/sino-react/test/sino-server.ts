import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { TokenStorage } from '@sino/js';
import { createRequire } from 'node:module';
import type * as Ws from 'ws';

// The browser's WebSocket in these jsdom tests: jsdom's own (undici's) dispatches Node events
// that jsdom's EventTarget refuses ("must be an instance of Event"), an uncaught error on each
// connection. `ws` speaks the same protocol with the same API, as a browser's would; required
// the Node way, since the jsdom environment's resolution picks its browser stub.
const { WebSocket: NodeWebSocket } = createRequire(import.meta.url)('ws') as typeof Ws;
globalThis.WebSocket = NodeWebSocket as unknown as typeof globalThis.WebSocket;

/**
 * Starts `sino-node.ts` (a real Sino over HTTP and socket.io) and talks to it: the component
 * tests run under jsdom and reach Sino as a browser would, through `fetch` and the socket.
 */
export interface SinoServer {
  url: string;
  applicationIdentifier: string;
  subscriberHash(subscriberId: string): string;
  /** A server-API call with the environment's API key (workflows, triggers). */
  api(method: string, path: string, body?: unknown): Promise<Response>;
  /**
   * Opens the subscriber (so it exists) and inserts `count` messages created one second apart,
   * answered newest first; `content` defaults to "Message 1" (oldest) … "Message n".
   */
  seed(subscriberId: string, count: number, options?: SeedOptions): Promise<{ _id: string }[]>;
  close(): Promise<void>;
}

export interface SeedOptions {
  seen?: boolean;
  read?: boolean;
  content?: string;
  feedId?: string | null;
  actor?: { type: 'none' | 'user' | 'system_icon' | 'system_custom'; data: string | null };
  /** The actor subscriber's internal `_id` (a `user` actor: the feed shows its avatar). */
  actorSubscriberId?: string;
  /** The messages' workflow (its `_id`): its tags and critical flag reach the widget. */
  workflowId?: string;
  cta?: {
    type: 'redirect';
    data?: { url?: string };
    action?: {
      status?: 'pending' | 'done';
      buttons?: { type: 'primary' | 'secondary'; content: string; resultContent?: string }[];
    };
  };
}

// Under jsdom the global URL is jsdom's: the path is built from the module's own folder.
const script = join(import.meta.dirname, 'sino-node.ts');

export async function startSino(): Promise<SinoServer> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await lines.next();
  if (first.done) throw new Error('the Sino test node exited before listening');
  const ready = JSON.parse(first.value as string) as {
    url: string;
    applicationIdentifier: string;
    apiKey: string;
  };
  let nextId = 0;
  // Requests are answered in order: one at a time keeps the line protocol trivial.
  let queue: Promise<unknown> = Promise.resolve();
  const request = (payload: object) => {
    const run = queue.then(async () => {
      const id = ++nextId;
      child.stdin.write(`${JSON.stringify({ id, ...payload })}\n`);
      const answer = await lines.next();
      if (answer.done) throw new Error('the Sino test node exited');
      const parsed = JSON.parse(answer.value as string) as { result?: unknown; error?: string };
      if (parsed.error) throw new Error(parsed.error);
      return parsed.result;
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    url: ready.url,
    applicationIdentifier: ready.applicationIdentifier,
    subscriberHash: (id) => createHmac('sha256', ready.apiKey).update(id).digest('hex'),
    api: (method, path, body) =>
      fetch(`${ready.url}${path}`, {
        method,
        headers: {
          authorization: `ApiKey ${ready.apiKey}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    seed: (subscriberId, count, options = {}) =>
      request({ op: 'seed', subscriberId, count, options }) as Promise<{ _id: string }[]>,
    async close() {
      child.stdin.end();
      // The node names on its standard error (inherited) what holds a slow close; past 30 s it
      // is ended, so that a server's close, tested on its own elsewhere, cannot fail every
      // component test of a file at teardown.
      const timer = setTimeout(() => {
        process.stderr.write('the Sino test node did not end 30 s after its close: killed\n');
        child.kill('SIGKILL');
      }, 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export class MemoryStorage implements TokenStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}
