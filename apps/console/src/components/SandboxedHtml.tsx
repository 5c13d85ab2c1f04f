import { useEffect, useId, useRef, useState } from 'react';

/** Frames made so far: each mount's frame gets a name no earlier one had. */
let framesMade = 0;

/**
 * HTML someone else wrote (a member's template, a rendered e-mail, a layout), shown in a frame
 * that can run nothing and reach nothing of the console (decisions 054, 056 and 063): the frame
 * is `sandbox`ed with no allowance (an opaque origin: no script, form, pop-up, or navigation of
 * the console), and its document comes from the server's `/console/frame` under a policy of its
 * own that lets the e-mail's inline styles apply (a `srcdoc` frame would inherit the console's
 * policy, which refuses them) and still runs no script. The HTML is posted into the frame by a
 * hidden form each time it changes. Every preview in the console goes through this component.
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
  // A name of this mount's own: a frame unmounted and mounted again in the same place (an
  // error shown meanwhile) gets the same useId, and Chromium then posts the form to the removed
  // frame's name, leaving the new one blank.
  const [made] = useState(() => ++framesMade);
  const name = `sandboxed-html-${useId()}-${made}`;
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // The hidden field holds `html` already: effects run after React has written the DOM.
    form.current?.submit();
  }, [html]);
  return (
    <>
      <form ref={form} method="post" action="/console/frame" target={name} hidden>
        <input type="hidden" name="html" value={html} />
      </form>
      <iframe
        className="sandboxed-html"
        name={name}
        title={title}
        sandbox=""
        referrerPolicy="no-referrer"
        style={{ height }}
      />
    </>
  );
}
