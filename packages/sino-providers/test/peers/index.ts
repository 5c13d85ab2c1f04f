/**
 * Local peers standing in for providers, for this package's tests and Sino's end-to-end ones
 * (`@sino/providers/testing`). Test code only: not part of the published package.
 */
export * from './http-peer.js';
export * from './http2-peer.js';
export * from './smtp-peer.js';
