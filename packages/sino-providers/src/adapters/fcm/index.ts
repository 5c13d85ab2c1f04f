import { createHash } from 'node:crypto';
import { SignJWT } from 'jose/jwt/sign';
import { importPKCS8 } from 'jose/key/import';
import { DeliveryError, badCredentials } from '../errors.js';
import { isProviderUrl } from '../../catalogue/destinations.js';
import { call, failureOf, urlOf, type HttpAnswer } from '../http.js';
import { defineAdapter } from '../define.js';
import type { AdapterContext, Credentials, PushMessage, SendResult } from '../types.js';
import { deepMerge, isRecord, numberOf, stringValues, textOf } from '../values.js';
import { toEveryTarget } from '../every-target.js';

/**
 * Firebase Cloud Messaging's HTTP v1 API
 * (https://firebase.google.com/docs/cloud-messaging/send/v1-api): one
 * `POST /v1/projects/{project}/messages:send` per device token, with an OAuth 2.0 access token
 * of the service account, obtained by the JWT-bearer grant
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest) and kept
 * until shortly before it expires. Plain HTTP and `jose` rather than `firebase-admin`.
 */
export const fcm = defineAdapter({
  providerId: 'fcm',
  channel: 'push',
  create(context) {
    return {
      async send(message) {
        const account = serviceAccountOf(context.credentials);
        const body = fcmMessageOf(message);
        const sendTo = async (token: string, stale?: string): Promise<SendResult> => {
          const bearer = await accessToken(context, account, stale);
          const answer = await call(context, {
            method: 'POST',
            url: urlOf(
              context,
              FCM_BASE,
              `/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`,
            ),
            headers: { authorization: `Bearer ${bearer}` },
            json: { message: { token, ...body } },
          });
          if (answer.status >= 200 && answer.status < 300)
            return { id: answer.json<{ name?: string }>()?.name, status: answer.status };
          // A revoked or expired access token: one more try with a new one.
          if (answer.status === 401 && !stale && googleError(answer)?.status === 'UNAUTHENTICATED')
            return sendTo(token, bearer);
          throw fcmFailure(secretContext(context, account, bearer), answer);
        };
        return toEveryTarget(message.target, (token) => sendTo(token));
      },
      async check() {
        // A fresh access token proves the key file: Google checks the signed assertion.
        try {
          await exchange(context, serviceAccountOf(context.credentials));
          return { ok: true, message: 'The service account works' };
        } catch (error) {
          if (error instanceof DeliveryError) return { ok: false, message: error.message };
          throw error;
        }
      },
    };
  },
});

const FCM_BASE = 'https://fcm.googleapis.com';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const GOOGLE_HOSTS = ['oauth2.googleapis.com', '*.googleapis.com'];
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** An access token is renewed this long before Google says it expires. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

interface ServiceAccount {
  client_email: string;
  private_key: string;
  project_id: string;
  token_uri: string;
  private_key_id?: string | undefined;
}

/** The key file under `serviceAccount` (JSON text, or already an object). */
function serviceAccountOf(credentials: Credentials): ServiceAccount {
  let parsed: unknown = credentials.serviceAccount;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      throw badCredentials('The service account is not valid JSON');
    }
  }
  if (parsed === null || typeof parsed !== 'object')
    throw badCredentials('The integration has no serviceAccount');
  const file = parsed as Record<string, unknown>;
  const text = (key: string) => {
    const value = file[key];
    if (typeof value !== 'string' || value.trim() === '')
      throw badCredentials(`The service account JSON has no ${key}`);
    return value;
  };
  return {
    client_email: text('client_email'),
    private_key: text('private_key'),
    project_id: text('project_id'),
    token_uri:
      typeof file.token_uri === 'string' && file.token_uri ? file.token_uri : GOOGLE_TOKEN_URI,
    private_key_id: typeof file.private_key_id === 'string' ? file.private_key_id : undefined,
  };
}

interface AccessToken {
  value: string;
  expiresAt: number;
}

/**
 * Access tokens by service account, shared by every adapter of the process: a token is good
 * for an hour whoever asks. Kept as promises, so concurrent sends wait for one exchange.
 */
const accessTokens = new Map<string, Promise<AccessToken>>();

/** The account's current access token; a new one when it nears expiry or is `stale`. */
async function accessToken(
  context: AdapterContext,
  account: ServiceAccount,
  stale?: string,
): Promise<string> {
  const key = [account.client_email, account.token_uri, sha256(account.private_key)].join('\n');
  const cached = accessTokens.get(key);
  if (cached) {
    const token = await cached.catch(() => undefined);
    // Tokens refused in parallel are renewed once, not once each.
    if (token && token.value !== stale && token.expiresAt - EXPIRY_MARGIN_MS > Date.now())
      return token.value;
  }
  const pending = exchange(context, account);
  accessTokens.set(key, pending);
  pending.catch(() => accessTokens.get(key) === pending && accessTokens.delete(key));
  return (await pending).value;
}

/** Signs the JWT assertion (RS256) and trades it for an access token at the key's token_uri. */
async function exchange(context: AdapterContext, account: ServiceAccount): Promise<AccessToken> {
  const key = await importPKCS8(account.private_key, 'RS256').catch(() => {
    throw badCredentials('The service account private_key is not a PKCS#8 RSA key in PEM');
  });
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.private_key_id && { kid: account.private_key_id }),
    })
    .setIssuer(account.client_email)
    .setAudience(account.token_uri)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(key);
  const answer = await call(context, {
    method: 'POST',
    url: account.token_uri,
    form: { grant_type: JWT_BEARER, assertion },
  });
  const json = answer.json<{
    access_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  }>();
  if (answer.status < 200 || answer.status >= 300) {
    const words = [json?.error, json?.error_description].filter(Boolean).join(': ');
    // A key file's token_uri off Google's hosts (and off the operator's base URL for FCM) was
    // chosen with the credentials: its words are not shown (decision 024).
    const operators =
      context.baseUrl !== undefined &&
      URL.canParse(account.token_uri) &&
      new URL(account.token_uri).origin === new URL(context.baseUrl).origin;
    const chosen =
      context.callerChosen || !(operators || isProviderUrl(account.token_uri, GOOGLE_HOSTS));
    throw failureOf({ ...secretContext(context, account), callerChosen: chosen }, answer, {
      ...(words && { message: `Google refused the service account (${words})` }),
    });
  }
  if (!json?.access_token)
    throw new DeliveryError('retryable', 'Google answered no access token', {
      status: answer.status,
    });
  return { value: json.access_token, expiresAt: Date.now() + (json.expires_in ?? 3600) * 1000 };
}

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{
    '@type'?: string;
    errorCode?: string;
    fieldViolations?: Array<{ field?: string; description?: string }>;
  }>;
}

const googleError = (answer: HttpAnswer) => answer.json<{ error?: GoogleError }>()?.error;

/**
 * FCM's refusal (https://firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode): the token
 * is the recipient's own problem when FCM says UNREGISTERED (the app was uninstalled or the
 * token expired) or INVALID_ARGUMENT about the token itself; anything else goes by status.
 */
function fcmFailure(context: AdapterContext, answer: HttpAnswer): DeliveryError {
  const error = googleError(answer);
  const code = error?.details?.find((d) => d.errorCode)?.errorCode ?? error?.status;
  const aboutToken =
    error?.details?.some((d) => d.fieldViolations?.some((v) => v.field === 'message.token')) ||
    /registration token/i.test(error?.message ?? '');
  const recipient = code === 'UNREGISTERED' || (code === 'INVALID_ARGUMENT' && aboutToken);
  return failureOf(context, answer, {
    ...(recipient && { kind: 'recipient' as const }),
    ...(error?.message && { message: `${code ?? 'Error'}: ${error.message}` }),
  });
}

/** The context whose credentials, for blanking in errors, include the key and access token. */
const secretContext = (context: AdapterContext, account: ServiceAccount, bearer?: string) => ({
  ...context,
  credentials: {
    ...context.credentials,
    privateKey: account.private_key,
    ...(bearer && { accessToken: bearer }),
  },
});

/**
 * Novu 0.24's FCM override fields (the legacy API's notification keys) and where FCM's HTTP v1
 * API takes each: the Android notification's options, and for sound and badge the APNs payload
 * as well (iOS devices through FCM).
 */
const ANDROID_FIELDS: Record<string, string> = {
  sound: 'sound',
  tag: 'tag',
  icon: 'icon',
  color: 'color',
  clickAction: 'click_action',
  bodyLocKey: 'body_loc_key',
  bodyLocArgs: 'body_loc_args',
  titleLocKey: 'title_loc_key',
  titleLocArgs: 'title_loc_args',
};

/**
 * The message's body but its token: the notification (title and body, as the trigger's
 * `overrides.fcm` may replace them) and its data, or with `type: 'data'` a data-only message
 * whose data carry title and body, as Novu 0.24 sends it. The override's `android`, `apns`,
 * `webPush` and `fcmOptions` go as given (in the HTTP v1 API's shape), merged over what the
 * legacy fields set. Keys FCM does not know are not sent: HTTP v1 refuses the whole message
 * for one unknown field.
 */
function fcmMessageOf(message: PushMessage): Record<string, unknown> {
  const o = message.overrides ?? {};
  const title = textOf(o.title) ?? message.title;
  const body = textOf(o.body) ?? message.content;
  const given = isRecord(o.data) ? o.data : message.data;
  if (o.type === 'data')
    return withOptions(o, { data: { ...stringValues(given), title, body, message: body } });
  const android: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(ANDROID_FIELDS)) {
    const value = o[key];
    if (value === undefined || value === null || value === '') continue;
    // Arguments of localized texts are lists; Novu's type allows one text.
    android[field] = key.endsWith('Args') && !Array.isArray(value) ? [value] : value;
  }
  const aps: Record<string, unknown> = {};
  if (textOf(o.sound)) aps.sound = o.sound;
  if (numberOf(o.badge) !== undefined) aps.badge = numberOf(o.badge);
  const image = textOf(o.image) ?? textOf(o.imageUrl);
  const data = stringValues(given);
  return withOptions(o, {
    notification: { title, body, ...(image && { image }) },
    ...(Object.keys(data).length > 0 && { data }),
    ...(Object.keys(android).length > 0 && { android: { notification: android } }),
    ...(Object.keys(aps).length > 0 && { apns: { payload: { aps } } }),
  });
}

/** The override's own HTTP v1 options merged over `built` (theirs win, key by key). */
function withOptions(
  o: Readonly<Record<string, unknown>>,
  built: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...built };
  const options: [string, unknown][] = [
    ['android', o.android],
    ['apns', o.apns],
    ['webpush', o.webPush ?? o.webpush],
    ['fcm_options', o.fcmOptions],
  ];
  for (const [key, value] of options)
    if (isRecord(value)) out[key] = deepMerge(isRecord(out[key]) ? out[key] : {}, value);
  return out;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
