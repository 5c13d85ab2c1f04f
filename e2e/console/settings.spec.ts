import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import {
  addMember,
  newOrganization,
  signInAs,
  unique,
  type Organization,
} from './organizations.js';
import { mailedLink } from './mailbox.js';

// The console's Settings section: members, API keys, branding, environments and the audit
// log, each at its own address. Each test makes an organization of its own (sign-up is open
// on the e2e server), so its admins, members and keys are nobody else's. Invitations go by
// e-mail, read where the e2e server's SMTP server keeps them (e2e/console/mailbox.ts).

const openSettings = async (page: Page, tab: string) => {
  await page.goto(`/console/settings/${tab}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
};

test('settings: an admin invites, revokes, changes roles and removes; the last admin stays', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org);

  // The section opens on its first tab, at an address of its own.
  await page.goto('/console/settings');
  await expect(page).toHaveURL(/\/console\/settings\/members$/);
  await expect(page.getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ hasText: 'Ada Lovelace' })).toContainText('You');
  await expect(rows.filter({ hasText: 'Grace Hopper' })).toContainText(grace.email);
  await expect(page.getByText('No invitation is waiting to be accepted.')).toBeVisible();

  // Invite: the address is checked first, then the link goes by e-mail.
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  const invited = unique('linus');
  await page.getByLabel('E-mail').fill(invited);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${invited} is invited` })).toContainText(
    'the link is on its way by e-mail',
  );
  const { token: mailed } = await mailedLink(invited, 'accept-invitation');
  expect((await request.get(`/v1/invites/${mailed}`)).status()).toBe(200);
  const pending = page.getByRole('listitem').filter({ hasText: invited });
  await expect(pending).toContainText('Admin');
  await expectFitsAndPhotograph(page, 'settings-members-invited');

  // Revoking asks first; Escape keeps it and gives the focus back.
  const revoke = page.getByRole('button', { name: `Revoke the invitation of ${invited}` });
  await revoke.click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this invitation?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  await revoke.click();
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No invitation is waiting to be accepted.')).toBeVisible();
  // The mailed link no longer works.
  const gone = await request.get(`/v1/invites/${mailed}`);
  expect(gone.status()).toBe(400);
  expect(await gone.text()).toContain('has expired or was already used');

  // An installation without mail (no SINO_MAIL_URL) answers the link to the admin instead
  // (decision 050): this server's real answer, with the link it mailed, as such a server gives it.
  const unmailed = unique('margaret');
  await page.route('**/v1/invites', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const answer = await route.fetch();
    const body = (await answer.json()) as { data: Record<string, unknown> };
    const { path } = await mailedLink(unmailed, 'accept-invitation');
    body.data.invitationLink = new URL(path, page.url()).href;
    await route.fulfill({ response: answer, json: body });
  });
  await page.getByLabel('E-mail').fill(unmailed);
  await page.getByRole('button', { name: 'Invite' }).click();
  const shown = page.getByRole('status').filter({ hasText: `${unmailed} is invited` });
  await expect(shown).toContainText('This installation sends no e-mail');
  await expect(shown.locator('code')).toContainText('/console/accept-invitation?token=');
  await expect(shown.getByRole('button', { name: 'Copy the link' })).toBeVisible();
  await page.unroute('**/v1/invites');

  // The last admin cannot stop being one: the server's words beside the select.
  await page.getByLabel('Role of Ada Lovelace').selectOption('member');
  await expect(page.getByRole('alert').filter({ hasText: 'last admin' })).toBeVisible();
  await expect(page.getByLabel('Role of Ada Lovelace')).toHaveValue('admin');

  // Nor be removed: the dialog says why.
  await page.getByRole('button', { name: 'Remove Ada Lovelace' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove Ada Lovelace?' });
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(remove.getByRole('alert')).toContainText('last admin cannot be removed');
  await expectFitsAndPhotograph(page, 'settings-members-last-admin');
  await remove.getByRole('button', { name: 'Cancel' }).click();

  // Grace becomes an admin, then a member again; then she is removed.
  await page.getByLabel('Role of Grace Hopper').selectOption('admin');
  await expect(page.getByLabel('Role of Grace Hopper')).toHaveValue('admin');
  await page.reload();
  await expect(page.getByLabel('Role of Grace Hopper')).toHaveValue('admin');
  await page.getByLabel('Role of Grace Hopper').selectOption('member');
  await expect(page.getByLabel('Role of Grace Hopper')).toHaveValue('member');
  await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
  await page
    .getByRole('dialog', { name: 'Remove Grace Hopper?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(rows.filter({ hasText: 'Grace Hopper' })).toHaveCount(0);
  const members = await request.get('/v1/organizations/members', {
    headers: { authorization: `Bearer ${org.adminToken}` },
  });
  expect(((await members.json()) as { data: unknown[] }).data).toHaveLength(1);

  // The audit log has it, newest first, with who and to whom.
  await page.getByRole('link', { name: 'Audit log' }).click();
  const entries = page.getByTestId('audit-entry');
  await expect(entries.first()).toContainText('Removed a member');
  await expect(entries.first()).toContainText('Ada Lovelace');
  await expect(entries.filter({ hasText: "Changed a member's role" }).first()).toContainText(
    '(Member)',
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectFitsAndPhotograph(page, 'settings-audit-log-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('settings: a member sees the people without controls; the admins-only pages say so', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org);
  await page.context().clearCookies();
  await signInAs(page, grace.email);

  await openSettings(page, 'members');
  await expect(page.getByRole('table')).toContainText('Ada Lovelace');
  await expect(page.getByText('Only admins invite people')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(page.getByRole('combobox')).toHaveCount(2); // the top bar's switchers only
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'settings-members-as-member');

  // The API answers a member 403 here: the page says whom to ask.
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByText('Only admins see the API keys')).toBeVisible();
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByText('Only admins see the audit log')).toBeVisible();
  await expectFitsAndPhotograph(page, 'settings-audit-log-as-member');
  await page.getByRole('link', { name: 'Branding' }).click();
  await expect(page.getByText('Only admins change them.')).toBeVisible();
  await expect(page.getByLabel('Brand color')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save branding' })).toHaveCount(0);
});

test('settings: a control shown to an admin who has since lost the role answers the server 403', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org, 'admin');
  await openSettings(page, 'members');
  await expect(page.getByRole('button', { name: 'Remove Grace Hopper' })).toBeVisible();
  // Grace, an admin too, makes Ada a member while Ada's page still shows the controls.
  const demote = await request.put(
    `/v1/organizations/members/${await idOf(request, org, 'Ada')}/roles`,
    {
      headers: { authorization: `Bearer ${grace.token}` },
      data: { role: 'member' },
    },
  );
  expect(demote.status(), await demote.text()).toBe(200);
  await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Grace Hopper?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog.getByRole('alert')).not.toBeEmpty();
  await expectFitsAndPhotograph(page, 'settings-members-refused');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // After a reload the page knows: no controls.
  await page.reload();
  await expect(page.getByText('Only admins invite people')).toBeVisible();
});

async function idOf(request: APIRequestContext, org: Organization, firstName: string) {
  const answer = await request.get('/v1/organizations/members', {
    headers: { authorization: `Bearer ${org.adminToken}` },
  });
  const { data } = (await answer.json()) as {
    data: { _id: string; user: { firstName: string } }[];
  };
  return data.find((m) => m.user.firstName === firstName)!._id;
}

test('settings: API keys are masked, revealed, copied, added, regenerated with a grace and revoked', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const org = await newOrganization(page, request);
  const keys = await page.request.get('/v1/environments/api-keys', {
    headers: { authorization: `Bearer ${org.adminToken}` },
  });
  const [first] = ((await keys.json()) as { data: { key: string }[] }).data;

  await openSettings(page, 'api-keys');
  const rows = page.getByTestId('api-key-row');
  await expect(rows).toHaveCount(1);
  const value = rows.first().getByTestId('api-key-value');
  await expect(value).toContainText('••••');
  await expect(value).not.toContainText(first!.key);
  await page.getByRole('button', { name: 'Reveal API key 1' }).click();
  await expect(value).toHaveText(first!.key);
  await expect(page.getByRole('button', { name: 'Hide API key 1' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByRole('button', { name: 'Copy API key 1' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  // A string: this file is checked without the DOM's types.
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(first!.key);

  // The environment's last key cannot be revoked: the server's words in the dialog.
  await page.getByRole('button', { name: 'Revoke API key 1' }).click();
  const revoke = page.getByRole('dialog', { name: 'Revoke this API key?' });
  await revoke.getByRole('button', { name: 'Revoke' }).click();
  await expect(revoke.getByRole('alert')).toContainText("environment's last API key");
  await revoke.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Add a key' }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Revoke API key 2' }).click();
  await revoke.getByRole('button', { name: 'Revoke' }).click();
  await expect(revoke).toBeHidden();
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'The key was revoked.' })).toBeVisible();

  // Regenerating says the old key stops, after the grace chosen.
  await page.getByRole('button', { name: 'Regenerate' }).click();
  const regenerate = page.getByRole('dialog', { name: 'Regenerate the API key?' });
  await expect(regenerate).toContainText('stops working after the grace period you choose');
  await regenerate.getByLabel('The old keys keep working for').selectOption({ label: '1 hour' });
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'settings-api-keys-regenerate');
  await regenerate.getByRole('button', { name: 'Regenerate' }).click();
  await expect(regenerate).toBeHidden();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Stops' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Active' })).toHaveCount(1);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'settings-api-keys');

  // With no grace, the old keys stop at once.
  await page.getByRole('button', { name: 'Regenerate' }).click();
  await regenerate
    .getByLabel('The old keys keep working for')
    .selectOption({ label: 'None: they stop at once' });
  await regenerate.getByRole('button', { name: 'Regenerate' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Active');
  const old = await page.request.get('/v1/environments/me', {
    headers: { authorization: `ApiKey ${first!.key}` },
  });
  expect(old.status()).toBe(401);
});

test('settings: branding previews as typed, warns of low contrast, shows the server refusal and saves', async ({
  page,
  request,
}) => {
  await newOrganization(page, request);
  await openSettings(page, 'branding');
  const preview = page.getByTestId('branding-preview');
  await expect(preview).toContainText('Analytical Engines');
  await expect(page.getByTestId('contrast-warning')).toHaveCount(0);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'settings-branding');

  await page.getByLabel('Brand color').fill('#0b4f2a');
  await page.getByLabel('Font', { exact: true }).fill('Georgia, serif');
  await expect(preview.getByText('Track the package')).toHaveCSS(
    'background-color',
    'rgb(11, 79, 42)',
  );
  await expect(preview).toHaveCSS('font-family', /Georgia/);

  // Light grey text on white: the warning names the pair and its ratio.
  await page.getByLabel('Text color').fill('#cccccc');
  await expect(page.getByTestId('contrast-warning')).toContainText(
    'The text color on the content background has a contrast of 1.61:1',
  );
  await expectFitsAndPhotograph(page, 'settings-branding-warning');
  await page.getByLabel('Text color').fill('#1f2933');
  await expect(page.getByTestId('contrast-warning')).toHaveCount(0);

  // The server refuses an http logo; its words are shown and nothing is saved.
  await page.getByLabel('Logo URL').fill('http://example.com/logo.png');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByRole('alert')).toContainText('https');
  await expectFitsAndPhotograph(page, 'settings-branding-refused');
  await page.getByLabel('Logo URL').fill('https://example.com/logo.png');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The branding was saved.' }),
  ).toBeVisible();
  await expect(preview).toContainText('Logo: example.com');

  await page.reload();
  await expect(page.getByLabel('Brand color')).toHaveValue('#0b4f2a');
  await expect(page.getByLabel('Text color')).toHaveValue('#1f2933');
  await expect(page.getByLabel('Logo URL')).toHaveValue('https://example.com/logo.png');
});

test('settings: environments with their identifiers; the audit log pages through who did what', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const auth = { authorization: `Bearer ${org.adminToken}` };
  await openSettings(page, 'environments');
  const environments = page.getByTestId('environment-row');
  await expect(environments).toHaveCount(2);
  const named = (name: string) =>
    environments.filter({
      has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name}`) }),
    });
  const development = named('Development');
  await expect(development).toContainText('Current');
  const production = named('Production');
  await expect(production).toContainText('Promoted from');
  const listed = await page.request.get('/v1/environments', { headers: auth });
  for (const e of ((await listed.json()) as { data: { name: string; identifier: string }[] }).data)
    await expect(named(e.name)).toContainText(e.identifier);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'settings-environments');

  // 21 keys added: with the sign-up and the address confirmed, 23 entries, two pages of 20.
  for (let i = 0; i < 21; i++) {
    const added = await page.request.post('/v1/environments/api-keys', { headers: auth });
    expect(added.status()).toBe(201);
  }
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/settings\/audit-log$/);
  const entries = page.getByTestId('audit-entry');
  await expect(entries).toHaveCount(20);
  await expect(entries.first()).toContainText('Ada Lovelace');
  await expect(entries.first()).toContainText('Added an API key');
  await expect(page.getByRole('button', { name: 'Newer' })).toBeDisabled();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'settings-audit-log');
  await page.getByRole('button', { name: 'Older' }).click();
  await expect(page.getByText('Page 2')).toBeVisible();
  await expect(entries).toHaveCount(3);
  await expect(entries.last()).toContainText('Signed up');
  await expect(page.getByRole('button', { name: 'Older' })).toBeDisabled();
  await page.getByRole('button', { name: 'Newer' }).click();
  await expect(entries).toHaveCount(20);
});

test('settings: by keyboard, from the section tabs to a sub-page; an unknown sub-page is said', async ({
  page,
  request,
}) => {
  await newOrganization(page, request);
  await openSettings(page, 'members');
  const tabs = page.getByRole('navigation', { name: 'Settings' });
  await tabs.getByRole('link', { name: 'Members' }).focus();
  await page.keyboard.press('Tab');
  await expect(tabs.getByRole('link', { name: 'API keys' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings\/branding$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Branding' })).toBeVisible();
  // Past the two tabs after Branding, the form's first field.
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  await expect(page.getByLabel('Logo URL')).toBeFocused();

  await page.goto('/console/settings/nothing-here');
  await expect(page.getByText('There is no such settings page.')).toBeVisible();
  await expectFitsAndPhotograph(page, 'settings-not-found');
});
