import { expect, test } from '@playwright/test';
import {
  GITHUB_PERSON,
  GOOGLE_PERSON,
  expectAccessibleInBothThemes,
  expectFitsAndPhotograph,
  signIn,
  SINO_ADMIN,
  watchCsp,
} from './apoio.js';
import { mailedLink } from './mailbox.js';

// Sino's console: signing in, up and out, the session across reloads, the environment
// switcher, and how the server serves it (its own deep links and policy).

test('console: a wrong password is shown in the form; the right one lands on Get started', async ({
  page,
}) => {
  await page.goto('/console/');
  // Signed out: the console's own sign-in page, not Locadora's.
  await expect(page).toHaveURL(/\/console\/sign-in\?next=%2F$/);
  await expect(page).toHaveTitle('Sino console');
  await page.getByLabel('E-mail').fill(SINO_ADMIN.email);
  await page.getByLabel('Password').fill('not-the-password-at-all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/password/i);
  await expect(page).toHaveURL(/\/console\/sign-in/);

  await page.getByLabel('Password').fill(SINO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/console\/get-started$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
  await expect(page.getByTestId('application-identifier')).not.toBeEmpty();
  await expect(page.getByTestId('api-key')).not.toBeEmpty();
});

test('console: the form checks the fields before sending', async ({ page }) => {
  await page.goto('/console/sign-in');
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(page.getByText('Enter your password')).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
});

test('console: a reload keeps the session; signing out ends it, across a reload too', async ({
  page,
}) => {
  await signIn(page);
  const key = await page.getByTestId('api-key').textContent();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
  await expect(page.getByTestId('api-key')).toHaveText(key!);

  await page.getByRole('button', { name: /Account of/ }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.goto('/console/get-started');
  await expect(page).toHaveURL(/\/console\/sign-in\?next=%2Fget-started$/);
});

test('console: sign-up makes an account with its own organization, signed in', async ({ page }) => {
  const email = `console-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto('/console/sign-in');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/console\/sign-up$/);
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Organization name (optional)').fill('Analytical Engines');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Use at least 12 characters')).toBeVisible();
  await page.getByLabel('Password').fill('a-long-enough-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
  await expect(page.getByLabel('Organization', { exact: true })).toHaveText(/Analytical Engines/);

  // The address confirmed from the mailed link, by a press (a mail scanner opening the link
  // spends nothing); the link works once.
  const { mail, path } = await mailedLink(email, 'verify-email');
  expect(mail.subject).toMatch(/confirm/i);
  await page.goto(path);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your e-mail address' }),
  ).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'verify-email');
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('status')).toContainText('Your address is confirmed.');
  await page.goto(path);
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('alert')).toContainText('expired or was already used');

  // The same address again: the server's answer, in the form.
  await page.context().clearCookies();
  await page.goto('/console/sign-up');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('a-long-enough-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/console\/sign-up$/);
});

test('console: switching to Production shows that environment key and identifier', async ({
  page,
}) => {
  await signIn(page);
  const environment = page.getByLabel('Environment', { exact: true });
  await expect(environment.locator('option:checked')).toHaveText('Development');
  const key = await page.getByTestId('api-key').textContent();
  const identifier = await page.getByTestId('application-identifier').textContent();
  await environment.selectOption({ label: 'Production' });
  await expect(page.getByTestId('api-key')).not.toHaveText(key!);
  await expect(page.getByTestId('application-identifier')).not.toHaveText(identifier!);
  await expect(page.getByTestId('api-key')).not.toBeEmpty();
  // The snippets carry the environment shown.
  const shownKey = (await page.getByTestId('api-key').textContent())!;
  await expect(page.getByText(`Authorization: ApiKey ${shownKey}`)).toBeVisible();
  // The session moved: a reload stays in Production.
  await page.reload();
  await expect(
    page.getByLabel('Environment', { exact: true }).locator('option:checked'),
  ).toHaveText('Production');
  await expect(page.getByTestId('api-key')).toHaveText(shownKey);
});

test('console: deep links are the console, with its own policy; assets cached; a missing asset is 404', async ({
  page,
}) => {
  const deep = await page.request.get('/console/get-started', { headers: { accept: 'text/html' } });
  expect(deep.status()).toBe(200);
  expect(await deep.text()).toContain('<title>Sino console</title>');
  expect(deep.headers()['cache-control']).toBe('no-cache');
  const policy = deep.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');
  // Frames of its own only: the preview frame (decision 063, e2e/console/preview-frame.spec.ts).
  expect(policy).toContain("frame-src 'self'");
  expect(policy).toContain("connect-src 'self'");
  // Locadora's pages keep theirs.
  const locadora = await page.request.get('/login', { headers: { accept: 'text/html' } });
  expect(locadora.headers()['content-security-policy']).not.toBe(policy);

  const html = await deep.text();
  const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  const asset = await page.request.get(script);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const missing = await page.request.get('/console/assets/missing-00000000.js', {
    headers: { accept: 'text/html' },
  });
  expect(missing.status()).toBe(404);
});

test('console: no policy violation, no axe violation light and dark, and it fits at 390 and 1920 px', async ({
  page,
}) => {
  const violations = await watchCsp(page);
  await page.goto('/console/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'sign-in');

  await page.getByLabel('E-mail').fill(SINO_ADMIN.email);
  await page.getByLabel('Password').fill(SINO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('api-key')).not.toBeEmpty();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'get-started');

  // The theme toggle overrides the system's preference, and the page stays accessible.
  await page.getByRole('button', { name: 'Use the dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectFitsAndPhotograph(page, 'get-started-dark');

  // On a phone the navigation opens from the Menu button.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('link', { name: 'Get started' })).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('link', { name: 'Get started' })).toBeVisible();
  await page.getByRole('button', { name: /Account of/ }).click();
  await expectFitsAndPhotograph(page, 'person-menu');

  expect(await violations()).toEqual([]);
});

test('console: keyboard only, from the skip link to signed in', async ({ page }) => {
  await page.goto('/console/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const focused = () =>
    page.locator('html').evaluate((html) => {
      const element = html.ownerDocument.activeElement;
      // An input's accessible name is its label's text.
      const label = element?.id
        ? html.ownerDocument.querySelector(`label[for="${element.id}"]`)
        : null;
      return label?.textContent ?? element?.textContent ?? '';
    });
  for (let i = 0; i < 5 && (await focused()) !== 'E-mail'; i++) await page.keyboard.press('Tab');
  expect(await focused()).toBe('E-mail');
  await page.keyboard.type(SINO_ADMIN.email);
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Password');
  await page.keyboard.type(SINO_ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();

  // Signed in: the first Tab reaches the skip link, which moves focus to the content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

for (const [provider, person] of [
  ['GitHub', GITHUB_PERSON],
  ['Google', GOOGLE_PERSON],
] as const) {
  test(`console: Continue with ${provider} signs in through the provider`, async ({ page }) => {
    await page.goto('/console/sign-in');
    // Both are configured on the e2e server; GET /v1/auth/providers lists only what is
    // (packages/sino-core/test/console-oauth.test.ts).
    await expect(page.getByRole('link', { name: /^Continue with / })).toHaveCount(2);
    await page.getByRole('link', { name: `Continue with ${provider}` }).click();
    // The local provider signs its person in and sends the browser back; the console then asks
    // the refresh cookie for its token (no token in a URL, decision 049).
    await expect(page).toHaveURL(/\/console\/get-started$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
    await page.getByRole('button', { name: /Account of/ }).click();
    await expect(page.getByText(person.email)).toBeVisible();
  });
}

test("console: a provider sign-in's failure comes back as a sentence on the sign-in page", async ({
  page,
}) => {
  await page.goto('/console/sign-in?error=oauth_denied');
  await expect(page.getByRole('alert')).toHaveText('The sign-in was cancelled at the provider.');
});
