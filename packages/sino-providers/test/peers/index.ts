/**
 * Local peers standing in for providers, for this package's tests and Sino's end-to-end ones
 * (`@sino/providers/testing`). Test code only: not part of the published package.
 */
export * from './http-peer.js';
export * from './http2-peer.js';
export * from './smtp-peer.js';
export * from './twilio-peer.js';

/**
 * The addresses the peers listen on. Sino refuses loopback destinations by default (decision
 * 024): tests admit their peers with this allow-list, as an operator admits a private relay.
 */
export const localPeerNetworks: readonly string[] = ['127.0.0.1', '::1'];
