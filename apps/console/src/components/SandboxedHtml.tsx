/**
 * HTML someone else wrote (a member's template, a rendered e-mail, a layout), shown in a frame
 * that can run nothing and reach nothing of the console: `sandbox` with no allowance gives it an
 * opaque origin with scripts, forms, pop-ups and navigation of the console all off (decisions
 * 054 and 056). Every preview in the console goes through this one component.
 */
export function SandboxedHtml({
  html,
  title,
  height = 480,
}: {
  html: string;
  /** The frame's accessible name ("Preview of the e-mail step"). */
  title: string;
  /** In CSS pixels; the frame cannot be measured from outside (it has no shared origin). */
  height?: number;
}) {
  return (
    <iframe
      className="sandboxed-html"
      title={title}
      sandbox=""
      referrerPolicy="no-referrer"
      srcDoc={html}
      style={{ height }}
    />
  );
}
