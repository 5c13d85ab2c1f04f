export * from './types.js';
export { DeliveryError, WebhookRejected, type FailureKind } from './errors.js';
export { adapterDefinition, adapterDefinitions } from './registry.js';
export { redact } from './http.js';
