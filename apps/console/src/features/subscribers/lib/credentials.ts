import { z } from '../../../lib/forms';

// A provider's credentials as the form takes them: the server's rules (an http(s) webhook with
// no user name or password; at most 100 device tokens) checked before sending.

const isWebhook = (v: string) => {
  try {
    const url = new URL(v);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
    );
  } catch {
    return false;
  }
};

export const tokensOf = (text: string) =>
  text
    .split('\n')
    .map((t) => t.trim())
    .filter(Boolean);

export const credentialsSchema = z
  .object({
    providerId: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, { error: 'Enter the provider, like slack or fcm' }),
        z.maxLength(100, { error: 'Use at most 100 characters' }),
      ),
    webhookUrl: z.string().check(
      z.trim(),
      z.maxLength(2000, { error: 'Use at most 2000 characters' }),
      z.refine((v) => v === '' || isWebhook(v), {
        error: 'Enter an http(s) address with no user name or password in it',
      }),
    ),
    deviceTokens: z.string().check(
      z.refine((v) => tokensOf(v).length <= 100, { error: 'At most 100 device tokens' }),
      z.refine((v) => tokensOf(v).every((t) => t.length <= 4096), {
        error: 'A device token has at most 4096 characters',
      }),
    ),
  })
  .check(
    z.refine((v) => v.webhookUrl.trim() !== '' || tokensOf(v.deviceTokens).length > 0, {
      error: 'Give a webhook URL (chat) or at least one device token (push)',
      path: ['webhookUrl'],
    }),
  );
export type CredentialsValues = z.infer<typeof credentialsSchema>;

export function credentialsBody(values: CredentialsValues) {
  const tokens = tokensOf(values.deviceTokens);
  return {
    providerId: values.providerId.trim(),
    credentials: {
      ...(values.webhookUrl.trim() && { webhookUrl: values.webhookUrl.trim() }),
      ...(tokens.length > 0 && { deviceTokens: tokens }),
    },
  };
}
