/** How a peer answers one request (both peers, HTTP/1.1 and HTTP/2). */
export interface PeerAnswer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  /** Never answer (the client's timeout must end it). */
  hang?: boolean;
  /** Answer only after this many milliseconds (a slow provider); HTTP/1.1 peer only. */
  delayMs?: number;
  /** Close the connection without answering (a network error for the client). */
  drop?: boolean;
}

/** A received body, readable as text or JSON. */
export interface RecordedBody {
  body: Buffer;
  text(): string;
  json<T = Record<string, any>>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any shape
}

export const recordedBody = (body: Buffer): RecordedBody => ({
  body,
  text: () => body.toString('utf8'),
  json: () => JSON.parse(body.toString('utf8')),
});

/**
 * A peer's answers: queued ones in order, then `otherwise` (a fixed answer or one computed
 * from the request).
 */
export function answerQueue<R>(initial: PeerAnswer) {
  const queued: PeerAnswer[] = [];
  let fallback: PeerAnswer | ((request: R) => PeerAnswer) = initial;
  return {
    reply: (...answers: PeerAnswer[]) => void queued.push(...answers),
    otherwise: (answer: PeerAnswer | ((request: R) => PeerAnswer)) => void (fallback = answer),
    next: (request: R): PeerAnswer =>
      queued.shift() ?? (typeof fallback === 'function' ? fallback(request) : fallback),
  };
}

/** The answer's headers and payload: `json` wins over `body` and sets the content type. */
export function payloadOf(answer: PeerAnswer): {
  headers: Record<string, string>;
  payload: string;
} {
  const headers = { ...answer.headers };
  if (answer.json === undefined) return { headers, payload: answer.body ?? '' };
  headers['content-type'] ??= 'application/json';
  return { headers, payload: JSON.stringify(answer.json) };
}
