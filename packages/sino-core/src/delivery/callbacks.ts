import { createHmac, timingSafeEqual } from 'node:crypto';
import { isId } from '../ids.js';

/**
 * How long a message's callback URL is read. Plivo gives up on a message after three hours in
 * its queue and carriers report within hours more; a week leaves room for late reports and the
 * provider's own retries, and bounds how long each signature's nonce must be remembered.
 */
export const CALLBACK_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The webhook route a callback URL is under (Novu's path, then the message's token). */
export interface CallbackScope {
  organizationId: string;
  environmentId: string;
  channel: string;
  providerId: string;
}

/**
 * Per-message callback URLs for providers whose webhook signatures leave the body out
 * (Plivo's covers the URL and a nonce): Novu's webhook path followed by
 * `<messageId>.<expiry>.<mac>`, the MAC an HMAC-SHA256 of the scope, the message and the
 * expiry under a key derived from `SINO_ENCRYPTION_KEY`, which every node has. The provider
 * signs the URL, so a captured signature names one message and cannot be moved to another.
 */
export function createCallbackUrls(options: {
  /** The server's secret the MAC key is derived from (the encryption key). */
  secret: string;
  /**
   * Previous encryption keys: URLs given out before a rotation are still read, for as long
   * as those keys stay configured (a URL is read for `CALLBACK_LIFETIME_MS`).
   */
  previousSecrets?: readonly string[] | undefined;
  /** Where providers reach this server (`SINO_PUBLIC_URL`); no callback URLs without it. */
  publicUrl?: string | undefined;
  now?: () => number;
}) {
  const keyOf = (secret: string) =>
    createHmac('sha256', secret).update('sino webhook callback urls').digest();
  const [key, ...previousKeys] = [options.secret, ...(options.previousSecrets ?? [])].map(keyOf);
  const base = options.publicUrl?.replace(/\/+$/, '');
  const now = options.now ?? Date.now;

  const macOf = (scope: CallbackScope, messageId: string, expiry: string, under: Buffer = key!) =>
    createHmac('sha256', under)
      .update(
        [
          scope.organizationId,
          scope.environmentId,
          scope.channel,
          scope.providerId,
          messageId,
          expiry,
        ].join('\n'),
      )
      .digest()
      .subarray(0, 16);

  return {
    /** The message's own webhook URL, read for `CALLBACK_LIFETIME_MS`; none without a public URL. */
    urlFor(scope: CallbackScope, messageId: string): string | undefined {
      if (!base) return undefined;
      const expiry = Math.ceil((now() + CALLBACK_LIFETIME_MS) / 1000).toString(36);
      const token = `${messageId}.${expiry}.${macOf(scope, messageId, expiry).toString('base64url')}`;
      return webhookUrl(base, scope, token);
    },

    /**
     * The webhook URL an integration's provider is given once, in its own console (Novu's
     * path); none without a public URL.
     */
    sharedUrlFor(scope: CallbackScope): string | undefined {
      return base ? webhookUrl(base, scope) : undefined;
    },

    /** The message a callback token of this scope names, while it is read; undefined otherwise. */
    verify(
      scope: CallbackScope,
      token: string,
    ): { messageId: string; expiresAt: Date } | undefined {
      const [messageId, expiry, mac, ...rest] = token.split('.');
      if (rest.length > 0 || !isId(messageId) || !expiry || !/^[0-9a-z]{1,10}$/.test(expiry))
        return undefined;
      const given = Buffer.from(mac ?? '', 'base64url');
      const signedBy = (under: Buffer) => {
        const expected = macOf(scope, messageId, expiry, under);
        return given.length === expected.length && timingSafeEqual(given, expected);
      };
      if (![key!, ...previousKeys].some(signedBy)) return undefined;
      const expiresAt = new Date(parseInt(expiry, 36) * 1000);
      return expiresAt.getTime() > now() ? { messageId, expiresAt } : undefined;
    },

    /**
     * The URL a provider called, as it signed it: under the public URL when there is one
     * (behind a proxy, the request's own scheme and host are the proxy's), else the request's.
     */
    urlCalled(requestOrigin: string, path: string): string {
      return `${base ?? requestOrigin}${path}`;
    },
  };
}

export type CallbackUrls = ReturnType<typeof createCallbackUrls>;

/** Novu's webhook path under `base`, and a message's callback token after it when given. */
function webhookUrl(base: string, scope: CallbackScope, token?: string): string {
  const path = [
    'organizations',
    scope.organizationId,
    'environments',
    scope.environmentId,
    scope.channel,
    scope.providerId,
    ...(token === undefined ? [] : [token]),
  ].map(encodeURIComponent);
  return `${base}/v1/webhooks/${path.join('/')}`;
}
