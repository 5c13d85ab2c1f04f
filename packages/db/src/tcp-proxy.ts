import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test controls, between the code under test and a real server (PostgreSQL,
 * Redis), to play that server's outages: `stall()` keeps every connection open and forwards
 * nothing (a server or network that hangs: new connections are accepted and get no answer),
 * `refuse()` resets every connection and stops listening (a server that is down), `resume()`
 * forwards again (what a stalled connection had sent is delivered then, as TCP would).
 */
export interface TcpProxy {
  readonly host: string;
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's (the password and path kept). */
  urlFor(url: string): string;
  stall(): void;
  refuse(): Promise<void>;
  resume(): Promise<void>;
  /** Connections made from now on go to `target` (another node); open ones keep theirs. */
  retarget(target: { host: string; port: number }): void;
  /** Connections open through the proxy now. */
  readonly connections: number;
  close(): Promise<void>;
}

type Mode = 'forward' | 'stall' | 'refuse';

/** One client connection and its upstream one, each direction held while stalled. */
class Pair {
  upstream: Socket | undefined;
  readonly #pending = new Map<Socket, Buffer[]>();
  /** Sockets whose peer half-closed or went away: the other side is ended after the data. */
  readonly #finished = new Set<Socket>();
  #destroyed = false;

  constructor(
    readonly client: Socket,
    readonly target: Readonly<{ host: string; port: number }>,
    readonly isStalled: () => boolean,
    readonly onClose: () => void,
  ) {
    this.#wire(client);
  }

  connectUpstream(): void {
    if (this.upstream || this.#destroyed) return;
    this.upstream = createConnection(this.target);
    this.#wire(this.upstream);
  }

  #other(socket: Socket): Socket | undefined {
    return socket === this.client ? this.upstream : this.client;
  }

  #wire(socket: Socket): void {
    socket.setNoDelay(true);
    this.#pending.set(socket, []);
    socket.on('data', (chunk: Buffer) => {
      const other = this.#other(socket);
      if (this.isStalled() || !other) {
        socket.pause();
        this.#pending.get(socket)!.push(chunk);
      } else if (!other.write(chunk)) {
        socket.pause();
        other.once('drain', () => this.isStalled() || socket.resume());
      }
    });
    socket.on('error', () => {});
    const finish = () => {
      if (this.#finished.has(socket)) return;
      this.#finished.add(socket);
      this.flow();
    };
    socket.on('end', finish);
    socket.on('close', () => {
      finish();
      if (this.client.destroyed && (!this.upstream || this.upstream.destroyed)) this.destroy();
    });
  }

  /** Delivers what waited and lets data flow both ways, or holds everything while stalled. */
  flow(): void {
    if (this.#destroyed) return;
    if (this.isStalled()) {
      this.client.pause();
      this.upstream?.pause();
      return;
    }
    for (const socket of [this.client, this.upstream]) {
      const other = socket && this.#other(socket);
      if (!socket || !other) continue;
      const waiting = this.#pending.get(socket)!;
      while (waiting.length > 0) other.write(waiting.shift()!);
      if (this.#finished.has(socket)) other.end();
      else socket.resume();
    }
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.client.destroy();
    this.upstream?.destroy();
    this.onClose();
  }
}

/** Starts a proxy on 127.0.0.1 (a port of its own) to `target`, forwarding. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  let upstream = { ...target };
  const pairs = new Set<Pair>();
  const stalled = () => mode === 'stall';
  const server: Server = createServer((client) => {
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    const pair = new Pair(client, upstream, stalled, () => pairs.delete(pair));
    pairs.add(pair);
    // While stalled a new connection is accepted and left without an answer.
    if (mode === 'stall') client.pause();
    else pair.connectUpstream();
    pair.flow();
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as { port: number }).port;
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    host: '127.0.0.1',
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    get connections() {
      return pairs.size;
    },
    stall() {
      if (mode !== 'forward') throw new Error(`cannot stall a proxy that is ${mode}`);
      mode = 'stall';
      for (const pair of pairs) pair.flow();
    },
    async refuse() {
      if (mode === 'refuse') return;
      mode = 'refuse';
      for (const pair of [...pairs]) pair.destroy();
      await stopListening();
    },
    async resume() {
      if (mode === 'refuse') await listen(port);
      mode = 'forward';
      for (const pair of [...pairs]) {
        pair.connectUpstream();
        pair.flow();
      }
    },
    retarget(next) {
      upstream = { ...next };
    },
    async close() {
      const wasListening = mode !== 'refuse';
      mode = 'refuse';
      for (const pair of [...pairs]) pair.destroy();
      if (wasListening) await stopListening();
    },
  };
}
