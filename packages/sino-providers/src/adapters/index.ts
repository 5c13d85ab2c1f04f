export * from './types.js';
export { defineAdapter } from './define.js';
export { DeliveryError, WebhookRejected, type FailureKind } from './errors.js';
export { adapterDefinition, adapterDefinitions } from './registry.js';
export { redact } from './http.js';
export { MAX_WEBHOOK_FORM_PARAMS } from './webhook-form.js';
