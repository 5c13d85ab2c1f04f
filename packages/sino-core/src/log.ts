/**
 * Where Sino's parts report, in pino's order: the fields, then the message. Fastify's logger
 * is one; the services, the engine and the socket gateway take this rather than Fastify's type,
 * so they run (and are tested) without a Fastify instance.
 */
export interface Log {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
