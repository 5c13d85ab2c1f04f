import { expect, test } from '@playwright/test';
import {
  expectAccessibleInBothThemes,
  expectFitsAndPhotograph,
  signIn,
  SINO_ADMIN,
} from './apoio.js';
import { mailedLink } from './mailbox.js';
import { newOrganization, PASSWORD } from './organizations.js';

// The reset request, the mailed link (read where the e2e server's SMTP server keeps Sino's
// mail, e2e/console/mailbox.ts) and the reset link's page (decision 050).

test('console: asking for a reset says the same for any address', async ({ page }) => {
  await page.goto('/console/sign-in');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/console\/forgot-password$/);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'forgot-password');
  await page.getByLabel('E-mail').fill('nobody');
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  await page.getByLabel('E-mail').fill(SINO_ADMIN.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account uses that address');
});

test('console: a reset link the server does not know is refused in the form, and the two passwords must match', async ({
  page,
}) => {
  await page.goto(`/console/reset-password?token=${'y'.repeat(43)}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Choose a new password' }),
  ).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await page.getByLabel('New password', { exact: true }).fill('a-long-enough-password');
  await page.getByLabel('New password again').fill('another-long-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await page.getByLabel('New password again').fill('a-long-enough-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();

  await page.goto('/console/reset-password');
  await expect(page.getByRole('alert')).toContainText('This link has no token');
});

test('console: the mailed reset link sets a new password, once; the old one stops working', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request, 'Reset Works');
  await page.context().clearCookies();
  await page.goto('/console/forgot-password');
  await page.getByLabel('E-mail').fill(org.adminEmail);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account uses that address');

  const { mail, path } = await mailedLink(org.adminEmail, 'reset-password');
  expect(mail.subject).toMatch(/password/i);
  await page.goto(path);
  const fresh = 'a-brand-new-long-password';
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('New password again').fill(fresh);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password is changed');

  const old = await request.post('/v1/auth/login', {
    data: { email: org.adminEmail, password: PASSWORD },
  });
  expect(old.status()).toBe(401);
  await signIn(page, org.adminEmail, fresh);
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();

  // The link worked once.
  await page.context().clearCookies();
  await page.goto(path);
  await page.getByLabel('New password', { exact: true }).fill(fresh);
  await page.getByLabel('New password again').fill(fresh);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
});
