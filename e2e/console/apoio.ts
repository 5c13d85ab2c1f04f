import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// What the console's browser tests share. The server (e2e/servidor.ts) starts with this
// first admin's password (SINO_ADMIN_PASSWORD) and sign-up open (SINO_SIGNUP=open).

export const SINO_ADMIN = {
  email: 'admin@sino.localhost',
  password: 'console-e2e-admin-password',
};

/** Who the local GitHub (e2e/servidor.ts) signs in. */
export const GITHUB_PERSON = {
  id: '5150',
  login: 'octo',
  name: 'Octo Cat',
  email: 'octo@people.example',
  emailVerified: true,
};

/** Who the local Google (e2e/servidor.ts) signs in. */
export const GOOGLE_PERSON = {
  id: '108274365510293847561',
  name: 'Grace Hopper',
  email: 'grace@people.example',
  emailVerified: true,
};

export const WIDTHS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1920, height: 1080 },
};

/** Signs in through the sign-in form and waits for Get started. */
export async function signIn(page: Page, email = SINO_ADMIN.email, password = SINO_ADMIN.password) {
  await page.goto('/console/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
}

/**
 * Records every Content-Security-Policy violation of the page (the event fires in the page;
 * Playwright's init script is not subject to the policy), for `cspViolations`.
 */
export async function watchCsp(page: Page) {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) reported.push(message.text());
  });
  // A string: this file is checked without the DOM's types.
  await page.addInitScript(`
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__csp.push(event.violatedDirective + ' ' + event.blockedURI));
  `);
  return async () => [...reported, ...((await page.evaluate('window.__csp ?? []')) as string[])];
}

/**
 * No serious or critical axe-core violation, in light and in dark. The sandboxed previews
 * (SandboxedHtml) are left out: their HTML is a template's, not the console's, and axe cannot
 * run inside a frame that runs no script (it waits for it until the test times out).
 */
export async function expectAccessibleInBothThemes(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page }).exclude('iframe.sandboxed-html').analyze();
    const serious = result.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map(
        (v) =>
          `${colorScheme}: ${v.id} (${v.impact}): ${v.help} -> ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await expectEveryControlReachableByKeyboard(page);
}

/** What the keyboard check reads of the page's elements (the e2e code has no DOM types). */
interface PageNodes {
  forEach(each: (el: PageNode, i: number) => void): void;
}
interface PageNode {
  ownerDocument: {
    activeElement: PageNode | null;
    querySelector(selector: string): PageNode | null;
    querySelectorAll(selector: string): PageNodes;
  };
  querySelectorAll(selector: string): PageNodes;
  tabIndex: number;
  disabled?: boolean;
  type?: string;
  name?: string;
  tagName: string;
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  closest(selector: string): unknown;
  checkVisibility(options: { visibilityProperty: boolean }): boolean;
  getBoundingClientRect(): { width: number; height: number };
  getAttribute(name: string): string | null;
  focus(): void;
  blur(): void;
}

/**
 * Tab, from the top of the page, reaches every visible control that is not disabled: links,
 * buttons, fields, summaries and anything with a tabindex of 0 or more (a radio group counts
 * once, as arrows move within it); with a modal dialog open, every control of the dialog. The
 * focus is put back where it was.
 */
export async function expectEveryControlReachableByKeyboard(page: Page) {
  const root = page.locator('html');
  const controls = await root.evaluate((html) => {
    const doc = (html as unknown as PageNode).ownerDocument;
    // A modal dialog makes the rest of the page inert: its controls are the page's then.
    const scope = doc.querySelector('dialog:modal') ?? doc;
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]';
    const found: { id: string; group: string; name: string }[] = [];
    scope.querySelectorAll(selector).forEach((el, i) => {
      if (el.tabIndex < 0 || el.disabled) return;
      if (el.closest('fieldset:disabled, [inert], [aria-hidden="true"]')) return;
      if (!el.checkVisibility({ visibilityProperty: true })) return;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return;
      el.dataset.keyboardCheck = String(i);
      const label = el.getAttribute('aria-label') ?? el.textContent ?? el.name ?? '';
      found.push({
        id: String(i),
        group: el.type === 'radio' && el.name ? `radio:${el.name}` : String(i),
        name: `${el.tagName.toLowerCase()} "${label.trim().slice(0, 40)}"`,
      });
    });
    return found;
  });
  const returnTo = await root.evaluate((html) => {
    const active = (html as unknown as PageNode).ownerDocument.activeElement;
    active?.blur();
    return active?.dataset.keyboardCheck ?? null;
  });
  const reached = new Set<string>();
  let seenFirst: string | undefined;
  for (let i = 0; i < controls.length * 2 + 20; i++) {
    await page.keyboard.press('Tab');
    const id = await root.evaluate(
      (html) =>
        (html as unknown as PageNode).ownerDocument.activeElement?.dataset.keyboardCheck ?? '',
    );
    if (!id) continue;
    // Round the page once: back at the first control reached, every other one came.
    if (id === seenFirst) break;
    seenFirst ??= id;
    reached.add(controls.find((c) => c.id === id)?.group ?? id);
  }
  const missed = controls.filter((c) => !reached.has(c.group)).map((c) => c.name);
  await root.evaluate((html, id) => {
    const doc = (html as unknown as PageNode).ownerDocument;
    // Nothing had the focus: nothing keeps it (a focus ring in the screenshots would be ours).
    if (id === null) doc.activeElement?.blur();
    doc.querySelectorAll('[data-keyboard-check]').forEach((el) => {
      if (el.dataset.keyboardCheck === id) el.focus();
      delete el.dataset.keyboardCheck;
    });
  }, returnTo);
  expect(missed, 'controls Tab does not reach').toEqual([]);
}

/**
 * At 390 and 1920 px: nothing scrolls sideways, and a screenshot of each width into
 * test-results/console-screenshots (looked at by people, not committed).
 */
export async function expectFitsAndPhotograph(page: Page, name: string) {
  mkdirSync('test-results/console-screenshots', { recursive: true });
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    const overflow = await page
      .locator('html')
      .evaluate((html) => html.scrollWidth - html.clientWidth);
    expect(overflow, `${name} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: `test-results/console-screenshots/${name}-${label}.png`,
      fullPage: true,
    });
    // Chromium does not paint a sandboxed frame (a process of its own) while it is off screen,
    // so the full page shows a preview below the fold blank: each is photographed on its own.
    const previews = page.locator('iframe.sandboxed-html');
    for (let i = 0; i < (await previews.count()); i++)
      await previews.nth(i).screenshot({
        path: `test-results/console-screenshots/${name}-${label}-preview-${i + 1}.png`,
      });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
