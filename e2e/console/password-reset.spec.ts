import { expect, test } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph, SINO_ADMIN } from './apoio.js';

// The reset request and the reset link's page (decision 050). The e2e server has no platform
// mail, so no link arrives: the request's answer (the same for any address) and a link's
// refusal are what the browser can check.

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
