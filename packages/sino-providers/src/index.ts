/**
 * Sino's delivery providers: the catalogue (every provider of the specification with its
 * metadata and credential schema, decision 022) and one adapter per provider (decision 023).
 */
export * from './catalogue/index.js';
export * from './adapters/index.js';
export * from './egress/index.js';
