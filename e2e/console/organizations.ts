import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './apoio.js';
import { mailedLink } from './mailbox.js';

// An organization of a test's own (sign-up is open on the e2e server), so its changes, members
// and numbers are nobody else's. Inviting needs a confirmed address: the new admin confirms
// hers with the link Sino mails her (e2e/console/mailbox.ts).

export const PASSWORD = 'a-long-enough-password';
export const unique = (who: string) =>
  `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export interface Organization {
  /** The new admin's access token, in the organization's Development environment. */
  adminToken: string;
  adminEmail: string;
}

/** Signs the page up as Ada, the admin of a new organization (the refresh cookie is the page's). */
export async function newOrganization(
  page: Page,
  request: APIRequestContext,
  organizationName = 'Analytical Engines',
): Promise<Organization> {
  const adminEmail = unique('ada');
  const answer = await page.request.post('/v1/auth/register', {
    data: {
      email: adminEmail,
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      organizationName,
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const adminToken = ((await answer.json()) as { data: { token: string } }).data.token;
  const { token } = await mailedLink(adminEmail, 'verify-email');
  const verified = await request.post('/v1/auth/verify-email', { data: { token } });
  expect(verified.status(), await verified.text()).toBe(200);
  return { adminToken, adminEmail };
}

/** Grace, a member who accepted an invitation (in a request context without the page's cookies). */
export async function addMember(request: APIRequestContext, org: Organization, role = 'member') {
  const email = unique('grace');
  const invite = await request.post('/v1/invites', {
    headers: { authorization: `Bearer ${org.adminToken}` },
    data: { email, role },
  });
  expect(invite.status(), await invite.text()).toBe(201);
  const { token: invitation } = await mailedLink(email, 'accept-invitation');
  const accept = await request.post(`/v1/invites/${invitation}/accept`, {
    data: { password: PASSWORD, firstName: 'Grace', lastName: 'Hopper' },
  });
  expect(accept.status(), await accept.text()).toBe(200);
  const { token, user } = (
    (await accept.json()) as { data: { token: string; user: { _id: string } } }
  ).data;
  return { email, token, id: user._id };
}

/** Signs the page in with the sign-in form, as someone with the tests' password. */
export async function signInAs(page: Page, email: string) {
  await signIn(page, email, PASSWORD);
}

/**
 * A token of the same person in the organization's Production environment, from a session of
 * its own (a switch moves the session it is made in, and the page's must stay in Development).
 */
export async function productionToken(request: APIRequestContext, email: string) {
  const login = await request.post('/v1/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const environments = await request.get('/v1/environments', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await environments.json()) as { data: { _id: string; name: string }[] };
  const production = data.find((e) => e.name === 'Production');
  expect(production, 'the organization has a Production environment').toBeTruthy();
  const switched = await request.post(`/v1/auth/environments/${production!._id}/switch`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(switched.status(), await switched.text()).toBeLessThan(300);
  return ((await switched.json()) as { data: { token: string } }).data.token;
}
