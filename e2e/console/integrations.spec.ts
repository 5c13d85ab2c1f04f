import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '@sino/providers/testing';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph, watchCsp } from './apoio.js';
import { addMember, newOrganization, signInAs, type Organization } from './organizations.js';

// The console's integrations store: the catalogue by channel with its logos, the form made
// from a provider's credential fields (checked before sending; the server's 400 shown; nothing
// saved on error), a real test send through Custom SMTP to an SMTP server this test starts (the
// e2e server admits loopback relays, e2e/servidor.ts), activation, primary and order, the
// webhook URL, deletion, the sandbox outbox, and a member's view. Each test has an
// organization of its own.

interface Integration {
  _id: string;
  name: string;
  providerId: string;
  channel: string;
  active: boolean;
  primary: boolean;
  credentials: Record<string, unknown>;
  webhookUrl: string | null;
  webhookSigning: string;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function integrationsOf(request: APIRequestContext, token: string) {
  const answer = await request.get('/v1/integrations', { headers: auth(token) });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: Integration[] }).data;
}

async function createThroughApi(
  request: APIRequestContext,
  token: string,
  body: Record<string, unknown>,
) {
  const answer = await request.post('/v1/integrations', { headers: auth(token), data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { data: Integration }).data;
}

const openStore = async (page: Page) => {
  await page.goto('/console/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations store' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Integrations' })).toBeVisible();
};

/** The row of an integration in the store's list. */
const rowOf = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

// Each test opens several pages, each checked by axe twice and photographed twice.
test.describe.configure({ timeout: 240_000 });

let smtp: SmtpPeer;
test.beforeAll(async () => {
  smtp = await startSmtpPeer();
});
test.afterAll(async () => {
  await smtp.close();
});

test('integrations: the catalogue by channel, each provider with its logo in both themes', async ({
  page,
  request,
}) => {
  const cspViolations = await watchCsp(page);
  await newOrganization(page, request);
  await openStore(page);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-list');
  // The catalogue by channel, each provider with its logo (files of the console's own origin).
  await page.getByRole('link', { name: 'Connect a provider' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Connect a provider' })).toBeVisible();
  for (const channel of ['Email', 'SMS', 'Chat', 'Push', 'In-app'])
    await expect(page.getByRole('heading', { level: 3, name: channel, exact: true })).toBeVisible();
  const logo = page.getByRole('link', { name: 'Custom SMTP' }).locator('img.logo-light');
  await expect(logo).toHaveAttribute('src', /^\/console\/assets\/nodemailer-[\w-]+\.svg$/);
  // Loaded from the console's own origin.
  expect(await logo.evaluate((img) => Number(Reflect.get(img, 'naturalWidth')))).toBeGreaterThan(0);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-catalogue');
  // In dark, the dark logo is the one shown.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(
    page.getByRole('link', { name: 'Custom SMTP' }).locator('img.logo-dark'),
  ).toBeVisible();
  await expect(logo).toBeHidden();
  await page.emulateMedia({ colorScheme: 'light' });

  expect(await cspViolations()).toEqual([]);
});

test("integrations: a provider's form marks its required fields and says what is missing", async ({
  page,
  request,
}) => {
  await newOrganization(page, request);
  await page.goto('/console/integrations/new/email/nodemailer');
  await expect(page.getByRole('heading', { level: 2, name: 'Connect Custom SMTP' })).toBeVisible();
  await expect(page.getByLabel('Host', { exact: true })).toHaveAttribute('aria-required', 'true');
  await expect(page.getByLabel('Require TLS')).toHaveAttribute('role', 'switch');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Enter the Host')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-connect-errors');
});

test('integrations: an admin connects Custom SMTP from the catalogue, checked first, and its test e-mail arrives', async ({
  page,
  request,
}) => {
  const cspViolations = await watchCsp(page);
  const org = await newOrganization(page, request);
  const before = await integrationsOf(request, org.adminToken);

  await openStore(page);
  // A new environment's own: the sandbox e-mail and SMS, and the in-app inbox.
  await expect(rowOf(page, 'Sino Email (sandbox)')).toContainText('Active');
  await expect(rowOf(page, 'Sino Email (sandbox)')).toContainText('When no other is active');

  await page.getByRole('link', { name: 'Connect a provider' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Connect a provider' })).toBeVisible();
  // By keyboard: Custom SMTP opened with Enter.
  const custom = page.getByRole('link', { name: 'Custom SMTP' });
  await custom.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/console\/integrations\/new\/email\/nodemailer$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Connect Custom SMTP' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Custom SMTP documentation/ })).toHaveAttribute(
    'href',
    'https://nodemailer.com/smtp/',
  );

  // Required fields missing: each says so, and nothing is sent.
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Enter the Host')).toBeVisible();
  await expect(page.getByText('Enter the Port')).toBeVisible();
  await expect(page.getByLabel('Host', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Host', { exact: true }).fill(smtp.host);
  await page.getByLabel('Port', { exact: true }).fill('70000');
  await page.getByLabel('From', { exact: true }).fill('store@analytical.example');
  await page.getByLabel('Sender name', { exact: true }).fill('Analytical Engines');
  await page.getByLabel('TLS options (optional)').fill('not json');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('TLS options must be a JSON object')).toBeVisible();
  await expect(page.getByText('Enter the Host')).toBeHidden();
  await page.getByLabel('TLS options (optional)').fill('');
  // What the console cannot know (a port's range is the server's rule): the server's 400, shown.
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('alert')).toContainText('port must be a port number (1 to 65535)');
  await expect(page.getByLabel('Host', { exact: true })).toHaveValue(smtp.host);
  expect(await integrationsOf(request, org.adminToken)).toHaveLength(before.length);

  // Right this time, switched on at once: it opens the new integration.
  await page.getByLabel('Port', { exact: true }).fill(String(smtp.port));
  await page.getByLabel('Name', { exact: true }).fill('Office relay');
  await page.getByLabel('Activate it now').check();
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Office relay' })).toBeVisible();
  const saved = (await integrationsOf(request, org.adminToken)).find(
    (i) => i.name === 'Office relay',
  )!;
  expect(saved).toMatchObject({ providerId: 'nodemailer', active: true, primary: true });
  expect(saved.credentials).toMatchObject({ host: smtp.host, port: smtp.port });

  // A real test: the e-mail reaches the SMTP server, addressed to the signed-in person.
  await page.getByRole('button', { name: 'Send a test e-mail' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent.' })).toBeVisible();
  await expect
    .poll(() => smtp.messages.filter((m) => m.to.includes(org.adminEmail)).length)
    .toBe(1);
  const mail = smtp.messages.find((m) => m.to.includes(org.adminEmail))!;
  expect(mail.text()).toContain('Subject: Sino test message');
  expect(mail.from).toBe('store@analytical.example');
  // The credentials checked without sending: the relay answers and takes the login.
  await page.getByRole('button', { name: 'Check the credentials' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The credentials work' })).toBeVisible();
  // Custom SMTP: Sino reads no webhook of it, and says so.
  await expect(page.getByText('No webhook to set')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-detail');

  // The list shows it first in the e-mail order, the primary.
  await page.getByRole('link', { name: 'Integrations', exact: true }).click();
  await expect(rowOf(page, 'Office relay')).toContainText('Primary');
  await expect(rowOf(page, 'Office relay')).toContainText('1st tried');
  expect(await cspViolations()).toEqual([]);
});

test('integrations: activate, deactivate, primary and order, webhook URL, and delete with confirmation', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const org = await newOrganization(page, request);
  await createThroughApi(request, org.adminToken, {
    providerId: 'twilio',
    channel: 'sms',
    name: 'Grid',
    active: true,
    credentials: {
      accountSid: 'AC-e2e-account',
      token: 'twilio-e2e-token-1234',
      from: '+15550001111',
    },
  });
  await createThroughApi(request, org.adminToken, {
    providerId: 'plivo',
    channel: 'sms',
    name: 'Mark',
    active: true,
    credentials: {
      accountSid: 'MA-e2e-account',
      token: 'plivo-e2e-token-5678',
      from: '+15550002222',
    },
  });

  await openStore(page);
  await expect(rowOf(page, 'Grid')).toContainText('Primary');
  await expect(rowOf(page, 'Grid')).toContainText('1st tried');
  await expect(rowOf(page, 'Mark')).toContainText('2nd tried');

  // Mark becomes the primary: tried first, Grid second.
  await page.getByRole('link', { name: 'Mark', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Mark' })).toBeVisible();
  // Masked as the server answers them.
  await expect(page.getByLabel('Auth token', { exact: true })).toHaveValue(/^•+5678$/);
  await page.getByRole('button', { name: 'Make primary' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'now the primary' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make primary' })).toBeHidden();
  await page.getByRole('link', { name: 'Integrations', exact: true }).click();
  await expect(rowOf(page, 'Mark')).toContainText('1st tried');
  await expect(rowOf(page, 'Grid')).toContainText('2nd tried');

  // The order set from the list, by keyboard: Grid moves earlier, and is primary again. The
  // pressed button keeps the focus, unavailable now that Grid is first.
  const earlier = page.getByRole('button', { name: 'Move Grid earlier' });
  await expect(page.getByRole('button', { name: 'Move Mark earlier' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await earlier.focus();
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Grid is now 1st tried for SMS.' }),
  ).toBeAttached();
  await expect(rowOf(page, 'Grid')).toContainText('1st tried');
  await expect(rowOf(page, 'Grid')).toContainText('Primary');
  await expect(rowOf(page, 'Mark')).toContainText('2nd tried');
  await expect(earlier).toBeFocused();
  await expect(earlier).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  const sms = (await integrationsOf(request, org.adminToken)).filter((i) => i.channel === 'sms');
  // The sandbox, tried only when no real provider is active, aside.
  const real = sms.filter((i) => i.active && i.providerId !== 'novu-sms');
  expect(real.map((i) => [i.name, i.primary])).toEqual([
    ['Grid', true],
    ['Mark', false],
  ]);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-list-order');

  // Grid: deactivated it leaves the order; activated, it comes back.
  await page.getByRole('link', { name: 'Grid', exact: true }).click();
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deactivated.' })).toBeVisible();
  await expect(page.locator('.state-line')).toContainText('Inactive');
  expect(
    (await integrationsOf(request, org.adminToken)).find((i) => i.name === 'Grid')!.active,
  ).toBe(false);
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Activated.' })).toBeVisible();

  // Its webhook URL, to paste into Twilio, with its signing state and a copy button.
  const stored = (await integrationsOf(request, org.adminToken)).find((i) => i.name === 'Grid')!;
  expect(stored.webhookUrl).toContain('/v1/webhooks/organizations/');
  await expect(page.getByText(stored.webhookUrl!, { exact: true })).toBeVisible();
  await expect(
    page.getByText(stored.webhookSigning === 'verified' ? /^Signed:/ : /^Not signed:/),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Copy the webhook URL' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(stored.webhookUrl);

  // Editing: a required value emptied is caught before sending; then the name is changed.
  await page.getByLabel('From', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Enter the From')).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill('+15550001111');
  await page.getByLabel('Name', { exact: true }).fill('Grid SMS');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Grid SMS' })).toBeVisible();
  const edited = (await integrationsOf(request, org.adminToken)).find(
    (i) => i.name === 'Grid SMS',
  )!;
  // The masked key sent back kept the stored one.
  expect(edited.credentials).toMatchObject({ token: stored.credentials.token });

  // A test SMS needs a number in E.164 form: checked before anything is sent.
  await page.getByLabel('Phone number').fill('12345');
  await page.getByRole('button', { name: 'Send a test SMS' }).click();
  await expect(page.getByText('Enter a phone number in E.164 form')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-detail-webhook');

  // Delete asks first, by keyboard: Escape keeps it and gives the focus back.
  const remove = page.getByRole('button', { name: 'Delete', exact: true });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete Grid SMS?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-delete');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\/console\/integrations$/);
  await expect(page.getByRole('link', { name: 'Grid SMS' })).toHaveCount(0);
  expect((await integrationsOf(request, org.adminToken)).map((i) => i.name)).not.toContain(
    'Grid SMS',
  );
});

test('integrations: the sandbox outbox shows what Novu Email sent, rendered in the sandboxed frame', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  await page.goto('/console/integrations/outbox');
  await expect(page.getByRole('heading', { level: 2, name: 'Sandbox outbox' })).toBeVisible();
  await expect(page.getByText('Nothing yet.')).toBeVisible();

  await page.getByRole('link', { name: 'Integrations', exact: true }).click();
  await page.getByRole('link', { name: 'Sino Email (sandbox)', exact: true }).click();
  await page.getByRole('button', { name: 'Send a test e-mail' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent.' })).toBeVisible();

  await page.getByRole('link', { name: 'Integrations', exact: true }).click();
  await page.getByRole('link', { name: 'Sino SMS (sandbox)', exact: true }).click();
  await page.getByLabel('Phone number').fill('+5511999990000');
  await page.getByRole('button', { name: 'Send a test SMS' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent.' })).toBeVisible();

  await page.getByRole('link', { name: 'Sandbox outbox' }).click();
  const item = page.getByRole('listitem').filter({ hasText: 'Sino test message' });
  const sms = page.getByRole('listitem').filter({ hasText: 'SMS to +5511999990000' });
  await expect(item).toContainText(org.adminEmail);
  await expect(sms).toHaveCount(1);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-outbox');
  // One channel at a time, in the address.
  await page.getByLabel('Channel').selectOption('sms');
  await expect(page).toHaveURL(/\/integrations\/outbox\?channel=sms$/);
  await expect(item).toHaveCount(0);
  await expect(sms).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Channel')).toHaveValue('sms');
  await page.getByLabel('Channel').selectOption('email');
  await expect(sms).toHaveCount(0);
  await expect(item).toHaveCount(1);
  await item.getByRole('link', { name: 'Sino test message' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Sino test message' })).toBeVisible();
  const frame = page.getByTitle('The e-mail as it would look');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe.sandboxed-html').locator('body')).toContainText(
    'This is a test message from Sino',
  );
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'integrations-outbox-mail');
  // Back to the list and into the mail again: the frame made anew shows it (a frame mounted
  // again in the same place once stayed blank).
  await page.goBack();
  await item.getByRole('link', { name: 'Sino test message' }).click();
  await expect(page.frameLocator('iframe.sandboxed-html').locator('body')).toContainText(
    'This is a test message from Sino',
  );
});

test('integrations: a member sees the integrations without any control, and the API refuses her', async ({
  page,
  request,
  browser,
}) => {
  const org: Organization = await newOrganization(page, request);
  const relay = await createThroughApi(request, org.adminToken, {
    providerId: 'nodemailer',
    channel: 'email',
    name: 'Members relay',
    credentials: {
      host: 'smtp.analytical.example',
      port: 587,
      password: 'relay-password-9876',
      from: 'mail@analytical.example',
      senderName: 'Analytical Engines',
    },
  });
  // Two active ones, which an admin could reorder.
  for (const name of ['Members primary', 'Members backup'])
    await createThroughApi(request, org.adminToken, {
      providerId: 'sendgrid',
      channel: 'email',
      name,
      active: true,
      credentials: {
        apiKey: `SG.${name.length}-e2e-key`,
        from: 'a@analytical.example',
        senderName: 'AE',
      },
    });
  const grace = await addMember(request, org);

  // The server's 403 to every change, whatever the console shows.
  const id = relay._id;
  const refusals = [
    request.post('/v1/integrations', {
      headers: auth(grace.token),
      data: { providerId: 'sendgrid', channel: 'email', credentials: {} },
    }),
    request.put(`/v1/integrations/${id}`, { headers: auth(grace.token), data: { active: true } }),
    request.post(`/v1/integrations/${id}/set-primary`, { headers: auth(grace.token) }),
    request.put('/v1/integrations/failover-order', {
      headers: auth(grace.token),
      data: { channel: 'email', integrationIds: [id] },
    }),
    request.post(`/v1/integrations/${id}/test`, { headers: auth(grace.token) }),
    request.delete(`/v1/integrations/${id}`, { headers: auth(grace.token) }),
  ];
  for (const answer of await Promise.all(refusals)) expect(answer.status()).toBe(403);
  expect(await integrationsOf(request, grace.token)).toHaveLength(
    (await integrationsOf(request, org.adminToken)).length,
  );

  const member = await browser.newContext();
  const memberPage = await member.newPage();
  await signInAs(memberPage, grace.email);
  await openStore(memberPage);
  await expect(rowOf(memberPage, 'Members relay')).toContainText('Inactive');
  await expect(memberPage.getByRole('link', { name: 'Connect a provider' })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: /^Move / })).toHaveCount(0);
  await expect(
    memberPage.getByText('Only admins connect, change or remove integrations.'),
  ).toBeVisible();
  await expectAccessibleInBothThemes(memberPage);
  await expectFitsAndPhotograph(memberPage, 'integrations-list-as-member');

  await memberPage.getByRole('link', { name: 'Members relay' }).click();
  await expect(memberPage.getByRole('heading', { level: 2, name: 'Members relay' })).toBeVisible();
  for (const control of [
    'Activate',
    'Make primary',
    'Delete',
    'Send a test e-mail',
    'Save changes',
  ])
    await expect(memberPage.getByRole('button', { name: control })).toHaveCount(0);
  await expect(memberPage.getByRole('textbox')).toHaveCount(0);
  // The credentials as the server answers them: the password masked.
  const password = memberPage.locator('.stored-credentials div').filter({ hasText: 'Password' });
  await expect(password).toContainText('9876');
  await expect(password).not.toContainText('relay-password');
  await expectAccessibleInBothThemes(memberPage);
  await expectFitsAndPhotograph(memberPage, 'integrations-detail-as-member');

  // The catalogue is readable, but connecting is an admin's.
  await memberPage.goto('/console/integrations/new/email/nodemailer');
  await expect(memberPage.getByText('Only admins can connect providers.')).toBeVisible();
  await expect(memberPage.getByRole('button', { name: 'Connect' })).toHaveCount(0);
  await member.close();
});
