import { describe, expect, it } from 'vitest';
import { adapterDefinition, adapterDefinitions, providers } from '../src/index.js';

/** Delivered by Sino itself (its database), not by an adapter of this package. */
const BUILT_IN = ['novu-email', 'novu-sms'];

describe('the adapter registry', () => {
  it('has an adapter for every provider of the catalogue but the sandbox and in-app', () => {
    const expected = providers
      .filter((p) => p.channel !== 'in_app' && !BUILT_IN.includes(p.id))
      .map((p) => `${p.channel}:${p.id}`);
    expect(adapterDefinitions.map((d) => `${d.channel}:${d.providerId}`)).toEqual(expected);
    expect(expected).toHaveLength(48);
  });

  it('finds an adapter by channel and id, and none for another channel', () => {
    expect(adapterDefinition('sms', 'twilio')?.providerId).toBe('twilio');
    expect(adapterDefinition('email', 'twilio')).toBeUndefined();
    expect(adapterDefinition('in_app', 'novu')).toBeUndefined();
  });

  it('builds every adapter without credentials (they are read when sending)', () => {
    for (const d of adapterDefinitions) {
      const adapter = d.create({ credentials: {}, timeoutMs: 1000 });
      expect(typeof adapter.send, d.providerId).toBe('function');
    }
  });
});
