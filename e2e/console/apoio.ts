import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

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

/** No serious or critical axe-core violation, in light and in dark. */
export async function expectAccessibleInBothThemes(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page }).analyze();
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
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

// An organization of a test's own (sign-up is open on the e2e server), so its admins, members,
// keys and integrations are nobody else's. Inviting needs a confirmed address and the e2e
// server mails nothing: Ada confirms hers the other way the server knows, by accepting (signed
// in) an invitation of the first admin's organization.

export const PASSWORD = 'a-long-enough-password';
export const unique = (who: string) =>
  `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export interface Organization {
  adminToken: string;
  adminEmail: string;
}

/** Signs the page up as Ada, the admin of a new organization (the refresh cookie is the page's). */
export async function newOrganization(
  page: Page,
  request: APIRequestContext,
): Promise<Organization> {
  const adminEmail = unique('ada');
  const answer = await page.request.post('/v1/auth/register', {
    data: {
      email: adminEmail,
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      organizationName: 'Analytical Engines',
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const adminToken = ((await answer.json()) as { data: { token: string } }).data.token;

  const login = await request.post('/v1/auth/login', {
    data: { email: SINO_ADMIN.email, password: SINO_ADMIN.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const firstAdmin = ((await login.json()) as { data: { token: string } }).data.token;
  const invite = await request.post('/v1/invites', {
    headers: { authorization: `Bearer ${firstAdmin}` },
    data: { email: adminEmail, role: 'member' },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  const accept = await request.post(`/v1/invites/${tokenOf(await invite.json())}/accept`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(accept.status(), await accept.text()).toBe(200);
  return { adminToken, adminEmail };
}

const tokenOf = (answer: unknown) =>
  new URL((answer as { data: { invitationLink: string } }).data.invitationLink).searchParams.get(
    'token',
  );

/** Grace, a member who accepted an invitation (in a request context without the page's cookies). */
export async function addMember(request: APIRequestContext, org: Organization, role = 'member') {
  const email = unique('grace');
  const invite = await request.post('/v1/invites', {
    headers: { authorization: `Bearer ${org.adminToken}` },
    data: { email, role },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  const accept = await request.post(`/v1/invites/${tokenOf(await invite.json())}/accept`, {
    data: { password: PASSWORD, firstName: 'Grace', lastName: 'Hopper' },
  });
  expect(accept.status(), await accept.text()).toBe(200);
  const { token, user } = (
    (await accept.json()) as { data: { token: string; user: { _id: string } } }
  ).data;
  return { email, token, id: user._id };
}

/** Signs in through the form as someone with the tests' password. */
export async function signInAs(page: Page, email: string) {
  await signIn(page, email, PASSWORD);
}
