import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { addMember, newOrganization, signInAs } from './organizations.js';

// The console's Subscribers section: the list, a new subscriber, their profile, channel
// credentials, preferences and in-app feed. Each test works in an organization of its own.

// Long flows on a shared machine: each test does many steps against the real server.
test.describe.configure({ timeout: 300_000 });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function getSubscriber(request: APIRequestContext, token: string, id: string) {
  return request.get(`/v1/subscribers/${encodeURIComponent(id)}`, { headers: bearer(token) });
}

/** An active workflow with an in-app step, triggered for the subscriber (through the API). */
async function notify(request: APIRequestContext, token: string, subscriberId: string) {
  const name = `Welcome ${Date.now()}`;
  const identifier = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const workflow = await request.post('/v1/workflows', {
    headers: bearer(token),
    data: {
      name,
      identifier,
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Hello {{name}}, welcome aboard' } }],
    },
  });
  expect(workflow.status(), await workflow.text()).toBe(201);
  const trigger = await request.post('/v1/events/trigger', {
    headers: bearer(token),
    data: { name: identifier, to: { subscriberId }, payload: { name: 'Ana' } },
  });
  expect(trigger.status(), await trigger.text()).toBe(201);
  return name;
}

test('subscribers: add, find and edit, bad input saving nothing', async ({ page, request }) => {
  const org = await newOrganization(page, request);
  const id = `ana-${Date.now()}`;

  // Empty: says what to do next, with the action.
  await page.goto('/console/subscribers');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribers' })).toBeVisible();
  await expect(page.getByText('No subscriber yet.')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'subscribers-empty');

  // Keyboard: the add link is reached with Tab and followed with Enter.
  const add = page.getByRole('link', { name: 'Add a subscriber' });
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a subscriber' })).toBeVisible();

  // Bad input: said next to each field, nothing sent.
  await page.getByLabel('Subscriber ID').fill(id);
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByLabel('Phone').fill('call me');
  await page.getByLabel('Data (JSON)').fill('{"plan": pro}');
  await page.getByRole('button', { name: 'Add the subscriber' }).click();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(page.getByText('Enter a phone number')).toBeVisible();
  await expect(page.getByText('Enter a JSON object')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'subscribers-new-invalid');
  expect((await getSubscriber(request, org.adminToken, id)).status()).toBe(404);

  // Fixed, it is added (what was typed stayed) and its page opens.
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill('Souza');
  await page.getByLabel('E-mail').fill('ana@people.example');
  await page.getByLabel('Phone').fill('+55 31 99999-0000');
  await page.getByLabel('Locale').fill('pt-BR');
  await page.getByLabel('Data (JSON)').fill('{"plan": "pro"}');
  await page.getByRole('button', { name: 'Add the subscriber' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Souza' })).toBeVisible();
  const saved = await (await getSubscriber(request, org.adminToken, id)).json();
  expect(saved.data).toMatchObject({
    email: 'ana@people.example',
    locale: 'pt-BR',
    data: { plan: 'pro' },
  });

  // The same ID again is refused, not overwritten.
  await page.goto('/console/subscribers/new');
  await page.getByLabel('Subscriber ID').fill(id);
  await page.getByLabel('First name').fill('Someone else');
  await page.getByRole('button', { name: 'Add the subscriber' }).click();
  await expect(page.getByRole('alert')).toContainText(
    `A subscriber with the ID ${id} already exists`,
  );
  expect((await (await getSubscriber(request, org.adminToken, id)).json()).data.firstName).toBe(
    'Ana',
  );

  // The list has it; the search finds it by name, whatever the case, and the search is a link.
  await page.goto('/console/subscribers');
  await expect(page.getByRole('row').filter({ hasText: id })).toContainText('ana@people.example');
  await expectFitsAndPhotograph(page, 'subscribers-list');
  const search = page.getByLabel('Search by subscriber ID, name, e-mail or phone');
  await search.fill('nobody-has-this-id');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?search=nobody-has-this-id$/);
  await expect(
    page.getByText('No subscriber’s ID, name, e-mail or phone holds “nobody-has-this-id”.'),
  ).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'subscribers-search-empty');
  await page.getByRole('link', { name: 'Clear the search' }).click();
  await expect(search).toHaveValue('');
  await search.fill('ANA SOUZA');
  await page.getByRole('button', { name: 'Search' }).click();
  const rows = page.getByRole('table').getByRole('row');
  // The header row and Ana's.
  await expect(rows).toHaveCount(2);
  await rows.nth(1).getByRole('link', { name: 'Ana Souza' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Souza' })).toBeVisible();
  // A link to an ID nobody has says so.
  await page.goto('/console/subscribers/nobody-has-this-id');
  await expect(page.getByText('No subscriber has the ID nobody-has-this-id')).toBeVisible();
  await page.goto(`/console/subscribers/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Souza' })).toBeVisible();

  // Edit: a bad value is refused before sending; a good one saved.
  await page.getByLabel('Locale').fill('not a locale');
  await page.getByRole('button', { name: 'Save the profile' }).click();
  await expect(page.getByText('Enter a language tag')).toBeVisible();
  await page.getByLabel('Locale').fill('en');
  await page.getByLabel('Last name').fill('Lima');
  await page.getByRole('button', { name: 'Save the profile' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The profile was saved.' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Lima' })).toBeVisible();
  expect((await (await getSubscriber(request, org.adminToken, id)).json()).data.locale).toBe('en');
});

test('subscribers: credentials, feed, preferences, a server refusal and deletion', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const id = `ana-${Date.now()}`;
  const made = await request.post('/v1/subscribers', {
    headers: bearer(org.adminToken),
    data: { subscriberId: id, firstName: 'Ana', lastName: 'Lima' },
  });
  expect(made.status()).toBe(201);
  await page.goto(`/console/subscribers/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Ana Lima' })).toBeVisible();

  // Credentials need an active chat or push integration (the server's rule): an admin adds one.
  await expect(
    page.getByText('This environment has no active chat or push integration'),
  ).toBeVisible();
  const integration = await request.post('/v1/integrations', {
    headers: bearer(org.adminToken),
    data: {
      providerId: 'slack',
      channel: 'chat',
      credentials: { applicationId: 'A1', clientId: 'client', secretKey: 'e2e-slack-secret' },
      active: true,
    },
  });
  expect(integration.status(), await integration.text()).toBe(201);
  await page.reload();

  // A chat webhook, masked until revealed; removal asks first.
  await page.getByText("Set a provider's credentials").click();
  await expect(page.getByLabel('Provider', { exact: true })).toHaveValue('slack');
  await page.getByLabel('Webhook URL').fill('https://user:secret@hooks.example/abc');
  await page.getByRole('button', { name: 'Save the credentials' }).click();
  await expect(page.getByText('no user name or password')).toBeVisible();
  await page.getByLabel('Webhook URL').fill('https://hooks.example/services/T000/SECRET');
  await page.getByRole('button', { name: 'Save the credentials' }).click();
  const row = page.getByTestId('credential-row');
  await expect(row).toContainText('https://hooks.example/••••••••');
  await expect(row).not.toContainText('SECRET');
  await page.getByRole('button', { name: 'Reveal the credentials of slack' }).click();
  await expect(row).toContainText('/services/T000/SECRET');

  // Feed and preferences of a workflow triggered for her.
  const workflow = await notify(request, org.adminToken, id);
  await page.reload();
  const message = page.getByTestId('feed-message');
  await expect(message).toContainText('Hello Ana, welcome aboard', { timeout: 15_000 });
  await expect(message).toContainText('Unread');
  await message.getByRole('button', { name: 'Mark as read' }).click();
  await expect(message).toContainText('Read');
  await expect(message.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
  const preference = page.getByTestId('preference-row').filter({ hasText: workflow });
  await preference.getByLabel('In-app').uncheck();
  await expect(preference.getByLabel('In-app')).not.toBeChecked();
  // The box turns at once; the server's copy once the request lands.
  const inAppStored = async () => {
    const prefs = await request.get(`/v1/subscribers/${id}/preferences`, {
      headers: bearer(org.adminToken),
    });
    const mine = (
      (await prefs.json()) as {
        data: { template: { name: string }; preference: { channels: { in_app: boolean } } }[];
      }
    ).data.find((p) => p.template.name === workflow);
    return mine?.preference.channels.in_app;
  };
  await expect.poll(inAppStored).toBe(false);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'subscribers-detail');

  await page.getByRole('button', { name: 'Remove the credentials of slack' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove the credentials of slack?' });
  await removal.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No chat or push provider has credentials yet')).toBeVisible();

  // A refusal of the server is shown, what was typed kept: the subscriber went elsewhere.
  const gone = await request.delete(`/v1/subscribers/${id}`, { headers: bearer(org.adminToken) });
  expect(gone.status()).toBe(200);
  await page.getByLabel('First name').fill('Ana Maria');
  await page.getByRole('button', { name: 'Save the profile' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not found' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Ana Maria');

  // Delete, with the keyboard: Escape keeps it, then Enter on Delete.
  await request.post('/v1/subscribers', {
    headers: bearer(org.adminToken),
    data: { subscriberId: id, firstName: 'Ana' },
  });
  await page.reload();
  const deleteButton = page.getByRole('button', { name: 'Delete the subscriber' });
  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Delete Ana?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribers' })).toBeVisible();
  expect((await getSubscriber(request, org.adminToken, id)).status()).toBe(404);
});

test('subscribers: a member has the same controls, as the server lets members manage them', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org);
  // The server API lets a member write subscribers (no admin guard on these routes).
  const made = await request.post('/v1/subscribers', {
    headers: bearer(grace.token),
    data: { subscriberId: `by-grace-${Date.now()}`, firstName: 'Made by Grace' },
  });
  expect(made.status(), await made.text()).toBe(201);

  await page.context().clearCookies();
  await signInAs(page, grace.email);
  await page.goto('/console/subscribers');
  await expect(page.getByRole('link', { name: 'Made by Grace' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add a subscriber' })).toBeVisible();
  await page.getByRole('link', { name: 'Made by Grace' }).click();
  await expect(page.getByRole('button', { name: 'Delete the subscriber' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save the profile' })).toBeVisible();
  await expectFitsAndPhotograph(page, 'subscribers-detail-as-member');
});

test('subscribers: a failing list says so and retries', async ({ page, request }) => {
  await newOrganization(page, request);
  let fail = true;
  await page.route('**/v1/subscribers?*', (route) =>
    fail ? route.fulfill({ status: 500, body: '{}' }) : route.fallback(),
  );
  await page.goto('/console/subscribers');
  await expect(page.getByRole('alert')).toContainText('The server ran into an error');
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('No subscriber yet.')).toBeVisible();
});
