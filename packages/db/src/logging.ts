import { errorForLog } from './errors.js';

/** What a request logger is given (Fastify's request), as far as `requestForLog` reads it. */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  routeOptions?: { url?: string | undefined };
  socket?: { remotePort?: number | undefined } | null;
}

/**
 * pino's `req` serializer for every app: a request is logged by its route
 * (`/v1/subscribers/:subscriberId`, `/api/Locacao/:id`) and the names of its query
 * parameters, never by what the client put in them: a path may hold a subscriberId that is an
 * e-mail, a query `?emails=` or a staff search `?busca=` by CPF. Without a route (404), the
 * path is kept, without its query.
 */
export function requestForLog(request: LoggedRequest) {
  const [path = '', query] = (request.url ?? '').split('?', 2);
  const names = query ? [...new URLSearchParams(query).keys()] : [];
  return {
    method: request.method,
    url: request.routeOptions?.url ?? path,
    ...(names.length > 0 && { query: [...new Set(names)].join(',') }),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The serializers of every app's logger: errors and requests without data (see each). */
export const logSerializers = { err: errorForLog, req: requestForLog };
