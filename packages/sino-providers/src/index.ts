/**
 * Sino's delivery providers. For now the catalogue: every provider of the specification with
 * its metadata and credential schema (docs/decisions/022); the adapters come next (issue 13).
 */
export * from './catalogue/index.js';
