import { z } from 'zod';

/** A hexadecimal colour, `#` optional as Novu 0.24 takes it; stored with its `#`. */
const colour = z
  .string()
  .trim()
  .regex(
    /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i,
    'must be a hexadecimal color, such as #1f2933',
  )
  .transform((c) => (c.startsWith('#') ? c : `#${c}`));

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'svg'];
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
/** A logo as a data URL, at most about 200 KB of image (mail clients refuse bigger ones). */
const MAX_DATA_URL = 280_000;

/** Whether the logo is an https image URL (by its extension, as Novu 0.24 checks it). */
function isHttpsImage(s: string): boolean {
  if (s.length > 2000 || !URL.canParse(s)) return false;
  const url = new URL(s);
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const extension = url.pathname.split('.').pop()?.toLowerCase() ?? '';
  return url.pathname.includes('.') && IMAGE_EXTENSIONS.includes(extension);
}

/**
 * The logo: an https URL of a jpg, jpeg, png, gif or svg image, or a data URL of a png, jpeg,
 * gif or webp image in base64. No other scheme (`http:`, `javascript:`, ...) reaches an email.
 */
const logo = z
  .string()
  .trim()
  .max(MAX_DATA_URL)
  .refine(
    (s) => isHttpsImage(s) || (s.length <= MAX_DATA_URL && DATA_IMAGE.test(s)),
    'must be an https URL of a jpg, jpeg, png, gif or svg image, or a data: URL of a png, jpeg, gif or webp image',
  );

/**
 * A CSS font family list: names of letters and digits in any script, with spaces, hyphens,
 * underscores, periods and single quotes, separated by commas. Nothing that could end the
 * declaration (`;`, braces, `<`, double quotes).
 */
const fontFamily = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(
    /^[\p{L}\p{N} ,'._-]+$/u,
    'must be a list of font names: letters, digits, spaces, commas, periods, hyphens, underscores and single quotes',
  );

/** PUT /v1/organizations/branding (Novu 0.24's `UpdateBrandingDetailsDto`); `null` is none. */
export const brandingBody = z.object({
  logo: logo.nullish(),
  color: colour.nullish(),
  fontColor: colour.nullish(),
  contentBackground: colour.nullish(),
  fontFamily: fontFamily.nullish(),
});
export type BrandingBody = z.infer<typeof brandingBody>;

/** Novu 0.24's `OrganizationBrandingResponseDto`. */
export const brandingAnswer = z.object({
  logo: z.string().optional(),
  color: z.string().optional(),
  fontColor: z.string().optional(),
  contentBackground: z.string().optional(),
  fontFamily: z.string().optional(),
  direction: z.enum(['ltr', 'rtl']).optional(),
});
