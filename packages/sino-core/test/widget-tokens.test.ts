import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWidgetTokens,
  WIDGET_AUDIENCE,
  type WidgetSession,
} from '../src/modules/widget/tokens.js';

const SECRET = 'a-widget-secret-of-at-least-32-characters';
const session: WidgetSession = {
  _id: '0123456789abcdef01234567',
  firstName: 'Ana',
  lastName: null,
  email: null,
  organizationId: '0123456789abcdef01234568',
  environmentId: '0123456789abcdef01234569',
  subscriberId: 'ana',
};

/** A token signed by hand, to vary what `issue` always gets right. */
function signed(claims: { secret?: string; audience?: string; expiresAt?: Date }) {
  return new SignJWT({ ...session })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('sino')
    .setAudience(claims.audience ?? WIDGET_AUDIENCE)
    .setExpirationTime(claims.expiresAt ?? '1h')
    .sign(createSecretKey(Buffer.from(claims.secret ?? SECRET, 'utf8')));
}

afterEach(() => vi.useRealTimers());

describe('widget tokens', () => {
  it('answers the session of a token it issued, as often as asked', async () => {
    const tokens = createWidgetTokens(SECRET);
    const token = await tokens.issue(session);
    expect(await tokens.verify(token)).toEqual(session);
    expect(await tokens.verify(token)).toEqual(session);
  });

  it('refuses forged, other-audience, expired and missing tokens', async () => {
    const tokens = createWidgetTokens(SECRET);
    expect(
      await tokens.verify(await signed({ secret: 'another-secret-of-32-characters-or-more' })),
    ).toBeNull();
    expect(await tokens.verify(await signed({ audience: 'subscriber' }))).toBeNull();
    expect(
      await tokens.verify(await signed({ expiresAt: new Date(Date.now() - 1000) })),
    ).toBeNull();
    for (const missing of [undefined, null, '', 'null', 'undefined', 'not.a.jwt'])
      expect(await tokens.verify(missing)).toBeNull();
  });

  it('refuses a token once it has expired, even one it verified before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
    const tokens = createWidgetTokens(SECRET);
    const token = await signed({ expiresAt: new Date('2026-11-23T13:00:00Z') });
    expect(await tokens.verify(token)).toEqual(session);
    vi.setSystemTime(new Date('2026-11-23T12:59:59Z'));
    expect(await tokens.verify(token)).toEqual(session);
    vi.setSystemTime(new Date('2026-11-23T13:00:00Z'));
    expect(await tokens.verify(token)).toBeNull();
  });

  it('gives every call a session no caller can change for the next', async () => {
    const tokens = createWidgetTokens(SECRET);
    const token = await tokens.issue(session);
    const first = await tokens.verify(token);
    expect(() => {
      (first as { subscriberId: string }).subscriberId = 'bruno';
    }).toThrow(TypeError);
    expect((await tokens.verify(token))?.subscriberId).toBe('ana');
  });
});
