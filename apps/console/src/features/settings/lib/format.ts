import { contrast, rgb, TEXT_CONTRAST } from '@sino/js/contrast';

// The settings section's pure pieces: how a key is masked, what a branding's contrast warns of,
// how an audited action reads.

/** A key shown masked: enough of both ends to tell keys apart. */
export const masked = (key: string) =>
  key.length <= 8 ? '•'.repeat(key.length) : `${key.slice(0, 4)}••••••••${key.slice(-4)}`;

/** The branding form's values, as typed (empty: none). */
export interface BrandingValues {
  logo: string;
  color: string;
  fontColor: string;
  contentBackground: string;
  fontFamily: string;
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;
/** A colour as typed (`#` optional, as the server takes it), or undefined. */
export const colourOf = (value: string) => {
  const v = value.trim();
  return HEX.test(v) ? (v.startsWith('#') ? v : `#${v}`) : undefined;
};
export const PREVIEW_DEFAULTS = {
  color: '#5b21b6',
  fontColor: '#18181b',
  contentBackground: '#ffffff',
};

/** Pairs whose contrast is below WCAG's 4.5:1 for text, said in words. */
export function contrastWarnings(values: BrandingValues): string[] {
  const background = rgb(colourOf(values.contentBackground) ?? PREVIEW_DEFAULTS.contentBackground);
  const warnings: string[] = [];
  const pairs: [string, string, string][] = [
    [values.fontColor, 'The text color', PREVIEW_DEFAULTS.fontColor],
    [values.color, 'The brand color', PREVIEW_DEFAULTS.color],
  ];
  for (const [value, name, fallback] of pairs) {
    const colour = rgb(colourOf(value) ?? fallback);
    if (!colour || !background) continue;
    const ratio = contrast(colour, background);
    if (ratio < TEXT_CONTRAST)
      warnings.push(
        `${name} on the content background has a contrast of ${ratio.toFixed(2)}:1, below the 4.5:1 that text needs to be read easily.`,
      );
  }
  return warnings;
}

/** The server's action names in words; an action not listed here is shown from its name. */
const ACTIONS: Record<string, string> = {
  'api_key.created': 'Added an API key',
  'api_key.regenerated': 'Regenerated the API key',
  'api_key.revoked': 'Revoked an API key',
  'change.promoted': 'Promoted a change',
  'change.rolled_back': 'Rolled back a change',
  'integration.test_sent': 'Sent a test message through an integration',
  'integration.order_changed': "Changed a channel's failover order",
  'invitation.accepted': 'Accepted an invitation',
  'invitation.revoked': 'Revoked an invitation',
  'member.invited': 'Invited someone',
  'member.removed': 'Removed a member',
  'member.role_changed': "Changed a member's role",
  'user.signed_in': 'Signed in',
  'user.signed_up': 'Signed up',
};

export function describeAction(action: string): string {
  if (ACTIONS[action]) return ACTIONS[action];
  const words = action.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
