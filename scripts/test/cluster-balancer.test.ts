import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { planNodes, poolOf, startBalancer, type ClusterNode } from '../cluster.mjs';

// The balancer of scripts/cluster.mjs in front of small HTTP servers standing in for nodes:
// each answers its own name, /ready, a Socket.IO-like long-polling handshake (a session id of
// its own) and WebSocket upgrades.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fakeNode(name: string, pools: ClusterNode['pools']): Promise<ClusterNode> {
  let sessions = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/ready') return void res.end('{}');
    if (req.url?.startsWith('/socket.io/') && !req.url.includes('sid=')) {
      res.end(`0{"sid":"${name}-${++sessions}","upgrades":["websocket"]}`);
      return;
    }
    res.end(name);
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) => socket.send(name));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise((resolve) => {
        sockets.close();
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return {
    name,
    role: pools.includes('socket') ? 'ws' : 'api',
    pools,
    port,
    url: `http://127.0.0.1:${port}`,
    state: 'up',
    pid: undefined,
  };
}

async function balancerFor(nodes: ClusterNode[]) {
  const balancer = await startBalancer(nodes, 0);
  cleanups.push(() => balancer.close());
  return { ...balancer, url: `http://127.0.0.1:${balancer.port}` };
}

const text = async (url: string) => (await fetch(url)).text();

describe('the cluster launcher', () => {
  it('plans 2 api, 2 ws and 2 worker processes, one all node, or the two halves apart', () => {
    expect(planNodes('cluster').map((n) => `${n.name}:${n.role}:${n.pools.join('+')}`)).toEqual([
      'api-1:api:app+sino',
      'api-2:api:app+sino',
      'ws-1:ws:socket',
      'ws-2:ws:socket',
      'worker-1:worker:',
      'worker-2:worker:',
    ]);
    expect(planNodes('cluster', { api: 1, ws: 3, worker: 0 }).map((n) => n.name)).toEqual([
      'api-1',
      'ws-1',
      'ws-2',
      'ws-3',
    ]);
    // One node doing everything (bench/aglomerado.ts's baseline), in every pool.
    expect(planNodes('cluster', { api: 0, ws: 0, worker: 0, all: 1 })).toEqual([
      { name: 'all-1', role: 'all', pools: ['app', 'sino', 'socket'], env: {} },
    ]);
    expect(planNodes('halves')).toEqual([
      { name: 'sino', role: 'all', pools: ['sino', 'socket'], env: { HALVES: 'sino' } },
      { name: 'locadora', role: 'all', pools: ['app'], env: {} },
    ]);
    expect(
      ['/socket.io/?EIO=4', '/v1/events/trigger', '/api/Locacao', '/', '/v1x'].map(poolOf),
    ).toEqual(['socket', 'sino', 'app', 'app', 'app']);
  });
});

describe('the balancer', () => {
  it('sends requests round robin to the api nodes and the socket to the ws nodes', async () => {
    const nodes = [
      await fakeNode('api-1', ['app', 'sino']),
      await fakeNode('api-2', ['app', 'sino']),
      await fakeNode('ws-1', ['socket']),
      await fakeNode('ws-2', ['socket']),
    ];
    const b = await balancerFor(nodes);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await text(`${b.url}/api/Categorias`));
    expect(answers).toEqual(['api-1', 'api-2', 'api-1', 'api-2']);

    // WebSocket upgrades, counted per node while open.
    const opened: WebSocket[] = [];
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = new WebSocket(
        `${b.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`,
      );
      opened.push(socket);
      names.push(
        await new Promise<string>((resolve) => socket.once('message', (m) => resolve(String(m)))),
      );
    }
    expect(names).toEqual(['ws-1', 'ws-2', 'ws-1']);
    expect(b.openSockets()).toEqual(
      new Map([
        ['ws-1', 2],
        ['ws-2', 1],
      ]),
    );
    for (const socket of opened) socket.close();
  });

  it('keeps a long-polling session on the node that opened it', async () => {
    const nodes = [await fakeNode('ws-1', ['socket']), await fakeNode('ws-2', ['socket'])];
    const b = await balancerFor(nodes);
    const handshake = await text(`${b.url}/socket.io/?EIO=4&transport=polling`);
    const sid = /"sid":"([^"]+)"/.exec(handshake)![1]!;
    const node = sid.replace(/-\d+$/, '');
    // Round robin would alternate; the session's requests stay.
    for (let i = 0; i < 3; i++)
      expect(await text(`${b.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`)).toBe(node);
  });

  it('takes a node out once its port refuses, and answers 503 when its pool is empty', async () => {
    const nodes = [
      await fakeNode('api-1', ['app', 'sino']),
      await fakeNode('api-2', ['app', 'sino']),
    ];
    const b = await balancerFor(nodes);
    // api-2 goes away without a word (its port closes).
    await cleanups.splice(1, 1)[0]!();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${b.url}/api/Categorias`);
      answers.push(`${r.status} ${await r.text()}`.trim());
    }
    // At most one request meets the closed port (502); then api-1 alone.
    expect(answers.filter((a) => a === '200 api-1').length).toBeGreaterThanOrEqual(3);
    expect(answers.filter((a) => a !== '200 api-1').every((a) => a.startsWith('502'))).toBe(true);

    nodes[0]!.state = 'down';
    nodes[1]!.state = 'down';
    expect((await fetch(`${b.url}/api/Categorias`)).status).toBe(503);
  });
});
