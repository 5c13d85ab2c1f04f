import { createHash, randomBytes } from 'node:crypto';

/** A new server API key: 32 random bytes, hex. Shown once; only its hash is stored. */
export const newApiKey = (): string => randomBytes(32).toString('hex');

/** SHA-256 is enough for a random 256-bit key (no dictionary to guard against, unlike passwords). */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A new application identifier: public, short, URL-safe. */
export const newApplicationIdentifier = (): string => randomBytes(9).toString('base64url');
