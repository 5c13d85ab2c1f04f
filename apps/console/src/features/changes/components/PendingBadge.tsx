import { useChangeCount } from '../lib/queries';

/**
 * The navigation's count of changes waiting for promotion (Novu's "Publish changes" count).
 * Nothing while it loads, when it fails or when none wait: the section says more.
 */
export function PendingBadge() {
  const count = useChangeCount();
  if (!count.data) return null;
  return (
    <span className="nav-badge" data-testid="pending-changes-badge">
      <span className="visually-hidden">, </span>
      {count.data}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}
