import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { SINO_ADMIN } from './apoio.js';

// An organization of a test's own (sign-up is open on the e2e server), so its admins, members
// and data are nobody else's. Inviting needs a confirmed address, and the e2e server mails
// nothing: Ada confirms hers the other way the server knows, by accepting (signed in) an
// invitation of the first admin's organization.

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

export async function signInAs(page: Page, email: string) {
  await page.goto('/console/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
}
