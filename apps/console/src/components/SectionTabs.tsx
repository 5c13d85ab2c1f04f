import { NavLink } from 'react-router';

export interface SectionTab {
  /** Under /console, e.g. `/settings/members`. */
  to: string;
  label: string;
  /** Current only on this exact address (a tab whose address is the section's own). */
  end?: boolean;
}

/** A section's pages as tabs: links, the current one marked `aria-current="page"`. */
export function SectionTabs({ label, tabs }: { label: string; tabs: readonly SectionTab[] }) {
  return (
    <nav aria-label={label} className="section-tabs">
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to} end={tab.end}>
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
