import { AWS_REGION } from '../catalogue/destinations.js';
import { badCredentials } from './errors.js';
import type { Credentials } from './types.js';

/** A required text credential; a permanent failure naming the key when absent. */
export function required(credentials: Credentials, key: string): string {
  const value = optional(credentials, key);
  if (value === undefined) throw badCredentials(`The integration has no ${key}`);
  return value;
}

/** An optional text credential (numbers given as text are kept as text). */
export function optional(credentials: Credentials, key: string): string | undefined {
  const value = credentials[key];
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value;
}

/** A switch or boolean credential: true for `true` or `"true"`, false otherwise (absent is off). */
export function flag(credentials: Credentials, key: string): boolean {
  const value = credentials[key];
  return value === true || value === 'true';
}

/**
 * The `region` credential of an AWS adapter, checked to be a region: it becomes part of the
 * host (`email.<region>.amazonaws.com`), so anything else could move the host elsewhere.
 */
export function awsRegion(credentials: Credentials): string {
  const region = required(credentials, 'region');
  if (!AWS_REGION.test(region)) throw badCredentials('The region is not an AWS region (us-east-1)');
  return region;
}
