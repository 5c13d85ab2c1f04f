import { z } from 'zod';
import { emailProviders, pushProviders, smsProviders } from '@sino/providers';

/**
 * The `overrides` of a trigger (Novu 0.24's `ITriggerOverrides`), checked at the edge: the
 * fields Sino applies are typed, with English messages; every other key is kept as given, as
 * Novu keeps it (a provider's own options, `delay`, keys of later Novu versions). Decision 044
 * says which field goes where.
 */

/** Whether the text has a control character (a line break would start another header). */
const hasControl = (s: string) =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** One line of text, at most `max` characters: it may become a header of the message. */
const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasControl(s), 'must be a single line of text');

/**
 * An email address as providers take one in a list: no spaces, angle brackets, commas,
 * semicolons or quotes (which would name another recipient), one `@` between two non-empty
 * parts. Addresses in any script pass.
 */
const ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/u;
const address = z
  .string()
  .max(320)
  .refine((s) => ADDRESS.test(s), 'must be an email address');
/** An address field, where an empty text means "not given" (as Novu reads it). */
const optionalAddress = z
  .string()
  .max(320)
  .refine((s) => s === '' || ADDRESS.test(s), 'must be an email address');
const addresses = z.array(address).max(100);

const identifier = z.string().max(200);
const record = z.record(z.string(), z.unknown());

/** An http(s) URL with no user name or password in it (they would be logged, shown, sent). */
const webhookUrl = z
  .string()
  .max(2000)
  .refine(
    (s) => s === '' || (URL.canParse(s) && /^https?:$/.test(new URL(s).protocol)),
    'must be an http or https URL',
  )
  .refine((s) => {
    if (!URL.canParse(s)) return true;
    const url = new URL(s);
    return !url.username && !url.password;
  }, 'must not carry a user name or password');

/** `overrides.email`, and the same under an email provider's id (which wins, key by key). */
export const emailOverride = z
  .looseObject({
    /** The integration to send through (channel key only), instead of the primary. */
    integrationIdentifier: identifier.nullish(),
    /** More recipients, after the subscriber's address. */
    to: addresses.nullish(),
    from: optionalAddress.nullish(),
    senderName: line(200).nullish(),
    replyTo: optionalAddress.nullish(),
    cc: addresses.nullish(),
    bcc: addresses.nullish(),
    subject: line(998).nullish(),
    /** The plain-text part; without `html`, the HTML part too. */
    text: z.string().nullish(),
    html: z.string().nullish(),
    customData: record.nullish(),
    ipPoolName: line(200).nullish(),
    /** The layout (by identifier) to render in instead of the step's (channel key only). */
    layoutIdentifier: identifier.nullish(),
  })
  .meta({
    id: 'TriggerEmailOverride',
    description:
      "Email overrides (Novu 0.24): under `email`, and under an email provider's id, which wins key by key.",
  });

/** `overrides.sms`, and the same under an SMS provider's id (which wins, key by key). */
export const smsOverride = z
  .looseObject({
    integrationIdentifier: identifier.nullish(),
    to: line(50).nullish(),
    from: line(50).nullish(),
    content: z.string().nullish(),
    customData: record.nullish(),
  })
  .meta({
    id: 'TriggerSmsOverride',
    description:
      "SMS overrides (Novu 0.24): under `sms`, and under an SMS provider's id, which wins key by key.",
  });

/** `overrides.chat` (Sino's; Novu 0.24 reads the trigger's `payload.webhookUrl` only). */
export const chatOverride = z.looseObject({ webhookUrl: webhookUrl.nullish() }).meta({
  id: 'TriggerChatOverride',
  description:
    "Sino's chat override: a webhook URL replacing the subscriber's (Novu 0.24 reads `payload.webhookUrl`).",
});

const deviceTokens = z.array(z.string().min(1).max(4096)).max(100);
const wholeNumber = z.union(
  [
    z.number().int('must be a whole number').min(0, 'must not be less than 0'),
    z.string().regex(/^\d+$/, 'must be a whole number'),
  ],
  { error: 'must be a whole number' },
);
const texts = z.union([z.string(), z.array(z.string())], {
  error: 'must be a string or a list of strings',
});
const sound = z.union([line(200), record], { error: 'must be a string or an object' });

/** Under any push provider's id: the devices to send to instead of the subscriber's. */
const pushBase = z.looseObject({ deviceTokens: deviceTokens.nullish() });
const pushOverride = pushBase.meta({
  id: 'TriggerPushOverride',
  description:
    "A push provider's overrides, under its id: `deviceTokens` replace the subscriber's; the rest goes to the provider.",
});

/** `overrides.fcm`: Novu 0.24's fields, and FCM's own HTTP v1 options. */
const fcmOverride = pushBase
  .extend({
    type: z.enum(['notification', 'data']).nullish(),
    title: z.string().nullish(),
    body: z.string().nullish(),
    image: line(2000).nullish(),
    imageUrl: line(2000).nullish(),
    sound: line(200).nullish(),
    badge: wholeNumber.nullish(),
    tag: line(200).nullish(),
    icon: line(2000).nullish(),
    color: line(50).nullish(),
    clickAction: line(2000).nullish(),
    bodyLocKey: line(200).nullish(),
    bodyLocArgs: texts.nullish(),
    titleLocKey: line(200).nullish(),
    titleLocArgs: texts.nullish(),
    data: record.nullish(),
    android: record.nullish(),
    apns: record.nullish(),
    webPush: record.nullish(),
    webpush: record.nullish(),
    fcmOptions: record.nullish(),
  })
  .meta({
    id: 'TriggerFcmOverride',
    description:
      "FCM overrides (`fcm`): Novu 0.24's fields, and FCM HTTP v1's android, apns, webPush and fcmOptions.",
  });

/** `overrides.apns`: node-apn's notification options, as Novu 0.24 hands them over. */
const apnsOverride = pushBase
  .extend({
    title: z.string().nullish(),
    subtitle: z.string().nullish(),
    body: z.string().nullish(),
    alert: z.union([z.string(), record], { error: 'must be a string or an object' }).nullish(),
    badge: wholeNumber.nullish(),
    sound: sound.nullish(),
    topic: line(200).nullish(),
    id: line(36).nullish(),
    expiry: z.number().int('must be a whole number').nullish(),
    priority: z.number().int('must be a whole number').nullish(),
    collapseId: line(64).nullish(),
    pushType: line(50).nullish(),
    threadId: line(200).nullish(),
    category: line(200).nullish(),
    contentAvailable: z.boolean().nullish(),
    mutableContent: z.boolean().nullish(),
    urlArgs: z.array(z.string()).nullish(),
    payload: record.nullish(),
    aps: record.nullish(),
    rawPayload: record.nullish(),
    mdm: z.union([z.string(), record], { error: 'must be a string or an object' }).nullish(),
  })
  .meta({
    id: 'TriggerApnsOverride',
    description:
      "APNs overrides (`apns`): node-apn's notification options, as Novu 0.24 hands them over.",
  });

/** `overrides.expo`: Expo message fields, set over Sino's. */
const expoOverride = pushBase
  .extend({
    to: z
      .union([z.string().min(1).max(4096), deviceTokens], {
        error: 'must be a push token or a list of them',
      })
      .nullish(),
    title: z.string().nullish(),
    body: z.string().nullish(),
    subtitle: z.string().nullish(),
    data: record.nullish(),
    ttl: z.number().nullish(),
    expiration: z.number().nullish(),
    priority: z.enum(['default', 'normal', 'high']).nullish(),
    badge: z.number().int('must be a whole number').min(0, 'must not be less than 0').nullish(),
    sound: sound.nullish(),
    channelId: line(200).nullish(),
    categoryId: line(200).nullish(),
    mutableContent: z.boolean().nullish(),
  })
  .meta({
    id: 'TriggerExpoOverride',
    description: "Expo overrides (`expo`): Expo message fields, set over Sino's.",
  });

/** `overrides['one-signal']`: what Novu 0.24's OneSignal provider reads. */
const oneSignalOverride = pushBase
  .extend({
    sound: line(200).nullish(),
    subtitle: z.string().nullish(),
    icon: line(2000).nullish(),
    channelId: line(200).nullish(),
    categoryId: line(200).nullish(),
    mutableContent: z.boolean().nullish(),
  })
  .meta({
    id: 'TriggerOneSignalOverride',
    description:
      "OneSignal overrides (`one-signal`): the options Novu 0.24's OneSignal provider reads.",
  });

const PUSH_OVERRIDES: Record<string, z.ZodType> = {
  fcm: fcmOverride,
  apns: apnsOverride,
  expo: expoOverride,
  'one-signal': oneSignalOverride,
};

/** The whole `overrides` object of a trigger. */
export const triggerOverrides = z
  .looseObject({
    email: emailOverride.nullish(),
    sms: smsOverride.nullish(),
    chat: chatOverride.nullish(),
    /** Novu 0.24's place of the layout override; `email.layoutIdentifier` wins (decision 046). */
    layoutIdentifier: identifier.nullish(),
    ...Object.fromEntries(emailProviders.map((p) => [p.id, emailOverride.nullish()])),
    ...Object.fromEntries(smsProviders.map((p) => [p.id, smsOverride.nullish()])),
    ...Object.fromEntries(
      pushProviders.map((p) => [p.id, (PUSH_OVERRIDES[p.id] ?? pushOverride).nullish()]),
    ),
  })
  .meta({
    id: 'TriggerOverrides',
    description:
      "Per channel and per provider overrides of a trigger, applied as Novu 0.24 applies them (Sino's decision 044). Keys not listed are kept as given.",
  });

export type EmailOverride = z.infer<typeof emailOverride>;
export type SmsOverride = z.infer<typeof smsOverride>;
export type TriggerOverrides = z.infer<typeof triggerOverrides>;
