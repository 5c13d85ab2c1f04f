/**
 * The part of the Socket.IO client the inbox needs, over one WebSocket: Engine.IO protocol 4
 * (open, ping and pong, close) and Socket.IO protocol 5 on the main namespace (connect with
 * `auth`, connect errors, server disconnects, events). No long-polling, no binary packets, no
 * acknowledgements: the widget connects over the websocket transport only and receives plain
 * JSON events. Written here instead of importing `socket.io-client`, which with `engine.io-client`
 * weighed about 12 KB gzip, a quarter of the whole widget (bench/README.md, inbox bundle size).
 * Reconnection follows socket.io-client's defaults (exponential back-off with jitter, unlimited
 * attempts). Unlike it, a disconnect by the server is retried too (a node closing for a deploy;
 * Sino's closes the transport instead, decision 034), as is a connection refused for a reason
 * other than the session: only `Unauthorized` (an expired or revoked token, an erased
 * subscriber) ends the attempts, since trying again with the same token cannot succeed.
 */

/** What this client needs of a WebSocket: the browser's, or a compatible one (e.g. `ws`). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close' | 'error', listener: () => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface SocketIoOptions {
  /** The server's origin (`http(s)://host[:port]`); `ws(s)` is derived from it. */
  url: string;
  path: string;
  /** Sent with the namespace connect packet (`socket.handshake.auth` on the server). */
  auth: Record<string, unknown>;
  reconnectionDelayMs: number;
  reconnectionDelayMaxMs: number;
  randomizationFactor: number;
  /** Longest wait for the namespace to be connected, per attempt. */
  timeoutMs: number;
  reconnectionAttempts: number;
  WebSocket?: WebSocketConstructor | undefined;
}

export interface SocketIoListeners {
  connect(): void;
  /** The connection was lost, or closed by the server (`reason`). */
  disconnect(reason: string): void;
  connectError(error: Error): void;
  event(name: string, data: unknown): void;
}

// Engine.IO packet types (the first character of a frame).
const EIO_OPEN = '0';
const EIO_CLOSE = '1';
const EIO_PING = '2';
const EIO_PONG = '3';
const EIO_MESSAGE = '4';
// Socket.IO packet types (the character after EIO_MESSAGE).
const SIO_CONNECT = '0';
const SIO_DISCONNECT = '1';
const SIO_EVENT = '2';
const SIO_CONNECT_ERROR = '4';

const OPEN = 1;

/** The refusal that says the session itself is invalid: no attempt with it can succeed. */
const SESSION_INVALID = 'Unauthorized';

export class SocketIoClient {
  private ws: WebSocketLike | null = null;
  private attempts = 0;
  private closedByUs = false;
  private isConnected = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatMs = 0;

  constructor(
    private readonly options: SocketIoOptions,
    private readonly listeners: SocketIoListeners,
  ) {}

  get connected(): boolean {
    return this.isConnected;
  }

  open(): void {
    this.closedByUs = false;
    const Ws = this.options.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
    if (!Ws) {
      this.listeners.connectError(new Error('No WebSocket implementation is available'));
      return;
    }
    const ws = new Ws(engineUrl(this.options.url, this.options.path));
    this.ws = ws;
    this.connectTimer = setTimeout(() => this.lost(ws, 'timeout'), this.options.timeoutMs);
    // Events of a socket that is no longer `this.ws` are ignored (`lost` and `receive` check).
    ws.addEventListener('message', (event) => {
      if (this.ws === ws && typeof event.data === 'string') this.receive(ws, event.data);
    });
    ws.addEventListener('close', () => this.lost(ws, 'transport close'));
    ws.addEventListener('error', () => this.lost(ws, 'transport error'));
  }

  /** Closes for good: no reconnection, no more listener calls. */
  close(): void {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.reset();
    if (ws && ws.readyState === OPEN) {
      // Leave the namespace, then close the transport, as socket.io-client does.
      ws.send(EIO_MESSAGE + SIO_DISCONNECT);
      ws.send(EIO_CLOSE);
    }
    ws?.close();
  }

  private receive(ws: WebSocketLike, frame: string): void {
    const type = frame[0];
    if (type === EIO_OPEN) {
      const handshake = parse(frame.slice(1)) as { pingInterval?: number; pingTimeout?: number };
      this.heartbeatMs = (handshake?.pingInterval ?? 25_000) + (handshake?.pingTimeout ?? 20_000);
      this.heartbeat(ws);
      ws.send(EIO_MESSAGE + SIO_CONNECT + JSON.stringify(this.options.auth));
    } else if (type === EIO_PING) {
      this.heartbeat(ws);
      ws.send(EIO_PONG);
    } else if (type === EIO_CLOSE) {
      this.lost(ws, 'transport close');
    } else if (type === EIO_MESSAGE) {
      this.receivePacket(ws, frame.slice(1));
    }
  }

  private receivePacket(ws: WebSocketLike, packet: string): void {
    const type = packet[0];
    // The main namespace is written as nothing; another namespace is not ours.
    if (packet[1] === '/') return;
    const body = packet.slice(1);
    if (type === SIO_CONNECT) {
      clearTimeout(this.connectTimer);
      this.attempts = 0;
      this.isConnected = true;
      this.listeners.connect();
    } else if (type === SIO_CONNECT_ERROR) {
      const data = parse(body) as { message?: string } | undefined;
      const message = data?.message ?? 'Connection refused';
      if (message === SESSION_INVALID) {
        this.giveUp(ws);
        this.listeners.connectError(new Error(message));
      } else this.lost(ws, 'connect error', new Error(message));
    } else if (type === SIO_DISCONNECT) {
      this.lost(ws, 'io server disconnect');
    } else if (type === SIO_EVENT) {
      // Optional acknowledgement id before the array: none are asked for, so digits are skipped.
      const args = parse(body.replace(/^\d+/, ''));
      if (Array.isArray(args) && typeof args[0] === 'string')
        this.listeners.event(args[0], args[1]);
    }
  }

  /** The server refused or ended the session: closed without reconnection. */
  private giveUp(ws: WebSocketLike): void {
    this.closedByUs = true;
    this.reset();
    ws.close();
  }

  /** Resets the heartbeat deadline: no ping within interval + timeout means the link is dead. */
  private heartbeat(ws: WebSocketLike): void {
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = setTimeout(() => this.lost(ws, 'ping timeout'), this.heartbeatMs);
  }

  /** The connection ended or failed for a reason worth another attempt, after a back-off. */
  private lost(ws: WebSocketLike, reason: string, refusal?: Error): void {
    if (this.ws !== ws) return;
    const wasConnected = this.isConnected;
    this.reset();
    ws.close();
    if (this.closedByUs) return;
    if (wasConnected) this.listeners.disconnect(reason);
    else
      this.listeners.connectError(
        refusal ?? new Error(reason === 'timeout' ? 'timeout' : 'websocket error'),
      );
    this.scheduleReconnect();
  }

  private reset(): void {
    clearTimeout(this.connectTimer);
    clearTimeout(this.heartbeatTimer);
    this.ws = null;
    this.isConnected = false;
  }

  private scheduleReconnect(): void {
    if (this.attempts >= this.options.reconnectionAttempts) return;
    const delay = backoff(this.attempts++, this.options);
    this.retryTimer = setTimeout(() => {
      if (!this.closedByUs) this.open();
    }, delay);
  }
}

/** `http://host/x` and `/socket.io` -> `ws://host/socket.io/?EIO=4&transport=websocket`. */
export function engineUrl(origin: string, path: string): string {
  const url = new URL(origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${path.replace(/\/+$/, '')}/`;
  url.search = 'EIO=4&transport=websocket';
  return url.toString();
}

/**
 * Wait before reconnection attempt `attempt` (from 0): the first delay doubled at each attempt,
 * spread by ± the randomization factor, never above the maximum (socket.io-client's back-off).
 */
export function backoff(
  attempt: number,
  o: Pick<
    SocketIoOptions,
    'reconnectionDelayMs' | 'reconnectionDelayMaxMs' | 'randomizationFactor'
  >,
  random: () => number = Math.random,
): number {
  const base = o.reconnectionDelayMs * 2 ** Math.min(attempt, 31);
  const spread = base * o.randomizationFactor * (random() * 2 - 1);
  return Math.max(0, Math.min(base + spread, o.reconnectionDelayMaxMs));
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
