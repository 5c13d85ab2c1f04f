import { logosOf, type ProviderEntry } from '../lib/catalogue';

/**
 * A provider's logo in the theme shown: both files are given, the stylesheet shows one.
 * Decorative (`alt=""`): the provider's name is always written beside it.
 */
export function ProviderLogo({
  entry,
  size = 32,
}: {
  entry: ProviderEntry | undefined;
  size?: number;
}) {
  if (!entry) return <span className="provider-logo provider-logo-missing" aria-hidden="true" />;
  const { light, dark } = logosOf(entry);
  return (
    <span className="provider-logo" style={{ width: size, height: size }}>
      {light && <img className="logo-light" src={light} alt="" width={size} height={size} />}
      {dark && <img className="logo-dark" src={dark} alt="" width={size} height={size} />}
    </span>
  );
}
