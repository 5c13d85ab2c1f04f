import { expect, test } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph, SINO_ADMIN } from './apoio.js';
import { mailedLink } from './mailbox.js';

// The invitation e-mail (platform-mail.ts), as it reaches the SMTP server of the e2e server
// (e2e/console/mailbox.ts), and its link (/console/accept-invitation?token=…) opened in the
// browser.

test('console: an invited member accepts from the mailed link, lands signed in, and sees no API key', async ({
  page,
  request,
}) => {
  // The admin, in a request context of its own (not the page's cookies).
  const login = await request.post('/v1/auth/login', {
    data: { email: SINO_ADMIN.email, password: SINO_ADMIN.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const email = `invited-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const invite = await request.post('/v1/invites', {
    headers: { authorization: `Bearer ${token}` },
    data: { email, role: 'member' },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  // The link goes by e-mail only: the admin's answer does not carry it.
  expect(JSON.stringify(await invite.json())).not.toContain('accept-invitation');
  const { mail, path } = await mailedLink(email, 'accept-invitation');
  expect(mail.subject).toMatch(/invit/i);
  expect(mail.text).toContain('Sino');
  const link = new URL(path, 'http://e2e.invalid');
  expect(link.pathname).toBe('/console/accept-invitation');

  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { level: 1, name: /^Join .+ on Sino$/ })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'accept-invitation');

  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Password').fill('too-short');
  await page.getByRole('button', { name: 'Accept and create my account' }).click();
  await expect(page.getByText('Use at least 12 characters')).toBeVisible();
  await page.getByLabel('Password').fill('a-long-enough-password');
  await page.getByRole('button', { name: 'Accept and create my account' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
  await expect(page.getByTestId('application-identifier')).not.toBeEmpty();
  // Members never see a key (decision 048): the page says whom to ask, and the snippets
  // name the key from the environment.
  await expect(page.getByText('Only admins see the API keys')).toBeVisible();
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  await expect(page.getByText('new Novu(process.env.SINO_API_KEY')).toBeVisible();

  // A member sees the integrations but cannot manage them: no control, and the API says 403.
  await page.getByRole('link', { name: 'Integrations store' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations store' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Novu In-App' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Connect a provider' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect a provider' })).toHaveCount(0);
  const member = await request.post('/v1/auth/login', {
    data: { email, password: 'a-long-enough-password' },
  });
  expect(member.status(), await member.text()).toBe(200);
  const memberToken = ((await member.json()) as { data: { token: string } }).data.token;
  const refused = await request.post('/v1/integrations', {
    headers: { authorization: `Bearer ${memberToken}` },
    data: { providerId: 'sendgrid', channel: 'email', credentials: { apiKey: 'SG.x' } },
  });
  expect(refused.status()).toBe(403);

  // The link works once.
  await page.context().clearCookies();
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('alert')).toBeVisible();
});

test('console: an unknown invitation token is said plainly', async ({ page }) => {
  await page.goto(`/console/accept-invitation?token=${'x'.repeat(43)}`);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
});
