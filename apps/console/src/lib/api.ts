// The one way the console talks to Sino's API: the access token kept in memory only (never in
// storage a script could read), one silent refresh on 401 through the httpOnly refresh cookie,
// and errors turned into ApiError with the server's English message.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * What to tell the person of a failed call: the server's words, or a plain sentence when the
 * request never got an answer (the network, a bug); nothing when there is no error.
 */
export const failureMessage = (error: unknown): string | null =>
  error == null ? null : error instanceof ApiError ? error.message : 'The request failed.';

export interface SessionUser {
  _id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  status: string;
  emailVerified: boolean;
}

/** What every sign-in, sign-up, accepted invitation and refresh answers. */
export interface Session {
  token: string;
  expiresIn: number;
  user: SessionUser;
  organizationId: string;
  environmentId: string;
}

let accessToken: string | null = null;
const expiryListeners = new Set<() => void>();

export const setAccessToken = (token: string | null): void => {
  accessToken = token;
};

/** The access token now (a renewal replaces it): for a socket's handshake, which is not `api`. */
export const currentAccessToken = (): string | null => accessToken;

/** Called when the session can no longer be renewed (ended, or revoked elsewhere). */
export function onSessionExpired(listener: () => void): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

const NO_CONNECTION = 'The server could not be reached. Check your connection and try again.';
const SERVER_FAILED = 'The server ran into an error. Try again in a moment.';

async function readError(response: Response): Promise<ApiError> {
  if (response.status >= 500) return new ApiError(response.status, SERVER_FAILED);
  let body: { message?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON (a proxy's page): the status alone speaks.
  }
  // Novu's validation errors answer a list of messages.
  const message = Array.isArray(body.message) ? body.message.join('. ') : body.message;
  return new ApiError(
    response.status,
    typeof message === 'string' && message ? message : `The request failed (${response.status}).`,
  );
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { credentials: 'same-origin', ...init });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NO_CONNECTION);
  }
}

let refreshing: Promise<Session | null> | null = null;

/** Exchanges the refresh cookie for a new access token; null when there is no session. */
export function refreshSession(): Promise<Session | null> {
  refreshing ??= (async () => {
    try {
      const response = await send('/v1/auth/refresh', { method: 'POST' });
      if (!response.ok) return null;
      const { data } = (await response.json()) as { data: Session };
      accessToken = data.token;
      return data;
    } catch {
      return null;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** Calls the API and answers the parsed JSON body (undefined for 204). */
export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const call = () => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    return send(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  };
  let response = await call();
  // An expired access token: renew once through the cookie, then try again.
  if (response.status === 401 && accessToken && !path.startsWith('/v1/auth/')) {
    if (await refreshSession()) response = await call();
    else {
      accessToken = null;
      for (const listener of expiryListeners) listener();
    }
  }
  if (!response.ok) throw await readError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
