import type { ProviderEntry } from '../lib/catalogue';
import { channelLabel } from '../lib/catalogue';
import { ProviderLogo } from './ProviderLogo';

/** A provider's logo, name, channel, beta badge and documentation link. */
export function ProviderHeading({
  entry,
  title,
  id,
}: {
  entry: ProviderEntry;
  title: string;
  id: string;
}) {
  return (
    <div className="provider-heading">
      <ProviderLogo entry={entry} size={48} />
      <div>
        <h2 id={id}>
          {title} {entry.betaVersion && <span className="badge badge-beta">Beta</span>}
        </h2>
        <p className="muted">
          {entry.displayName} · {channelLabel(entry.channel)} ·{' '}
          <a href={entry.docReference} target="_blank" rel="noreferrer">
            {entry.displayName} documentation
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      </div>
    </div>
  );
}
