/**
 * The layout every environment starts with (migration 0012 gives it to the environments made
 * before layouts, with this very content). A centred column on a light page: the
 * organisation's logo above a card in its content background, its colour as the card's top
 * border, its font and font colour for the text. Tables for the structure (mail clients read
 * little else), marked `role="presentation"` so screen readers skip them; the logo's
 * alternative text is the organisation's name. No single quote appears in it, so the migration
 * holds it as an SQL literal unchanged.
 */
export const DEFAULT_LAYOUT_CONTENT = `<!DOCTYPE html>
<html dir="{{#if branding.direction}}{{branding.direction}}{{else}}ltr{{/if}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<title>{{subject}}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr>
<td align="center" style="padding:32px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
{{#if branding.logo}}
<tr>
<td align="center" style="padding:0 0 20px 0;">
<img src="{{branding.logo}}" alt="{{branding.name}}" height="48" style="display:block;height:48px;width:auto;max-width:240px;border:0;outline:none;text-decoration:none;">
</td>
</tr>
{{/if}}
<tr>
<td style="background-color:{{branding.contentBackground}};border-top:4px solid {{branding.color}};border-radius:8px;padding:32px 28px;font-family:{{branding.fontFamily}};font-size:16px;line-height:1.6;color:{{branding.fontColor}};">
{{{body}}}
</td>
</tr>
</table>
</td>
</tr>
</table>
</body>
</html>
`;

/** The default layout's fields: what every new environment gets, and the migration's backfill. */
export const DEFAULT_LAYOUT = {
  name: 'Default layout',
  identifier: 'sino-default-layout',
  description: "The environment's first layout: the organisation's branding around the email.",
  content: DEFAULT_LAYOUT_CONTENT,
} as const;

/**
 * What `branding` holds in an email's templates when the organisation set none of it (or only
 * part): the default layout reads every field.
 */
export const BRANDING_DEFAULTS = {
  color: '#2f5fd0',
  fontColor: '#1f2933',
  contentBackground: '#ffffff',
  fontFamily: 'Helvetica, Arial, sans-serif',
} as const;
