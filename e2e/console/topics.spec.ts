import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { addMember, newOrganization, signInAs } from './organizations.js';

// The console's Topics section: create, rename, add and remove subscribers, delete (refused
// while subscribers remain). Each test works in an organization of its own.

test.describe.configure({ timeout: 180_000 });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function topicOf(request: APIRequestContext, token: string, key: string) {
  return request.get(`/v1/topics/${key}`, { headers: bearer(token) });
}

test('topics: create, rename, members, a refused deletion, then delete', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  for (const id of ['ana', 'bruno']) {
    const made = await request.post('/v1/subscribers', {
      headers: bearer(org.adminToken),
      data: { subscriberId: id },
    });
    expect(made.status()).toBe(201);
  }

  await page.goto('/console/topics');
  await expect(page.getByRole('heading', { level: 1, name: 'Topics' })).toBeVisible();
  await expect(page.getByText('No topic yet')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'topics-empty');

  // Keyboard: the create button with Space; bad input said, nothing saved.
  await page.getByRole('button', { name: 'Create a topic' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Product updates');
  await page.getByLabel('Key', { exact: true }).fill('product updates!');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Use only letters, digits')).toBeVisible();
  expect((await topicOf(request, org.adminToken, 'product-updates')).status()).toBe(404);
  await expectFitsAndPhotograph(page, 'topics-new-invalid');

  await page.getByLabel('Key', { exact: true }).fill('product-updates');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Product updates' })).toBeVisible();

  // Found by its key from the list; a key no topic has is said.
  await page.goto('/console/topics');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByText('Enter what to find')).toBeVisible();
  await page.getByLabel('Find by topic key').fill('no-such-topic');
  await page.keyboard.press('Enter');
  await expect(page.getByText('No topic has the key no-such-topic')).toBeVisible();
  await page.goto('/console/topics');
  await page.getByLabel('Find by topic key').fill('product-updates');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Product updates' })).toBeVisible();

  // The same key again: the server's refusal, shown; the form keeps what was typed.
  await page.goto('/console/topics');
  await page.getByRole('button', { name: 'Create a topic' }).click();
  await page.getByLabel('Name').fill('Again');
  await page.getByLabel('Key', { exact: true }).fill('product-updates');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Topic exists with key product-updates');
  await expect(page.getByLabel('Name')).toHaveValue('Again');
  await expect(page.getByRole('row').filter({ hasText: 'product-updates' })).toContainText(
    'Product updates',
  );
  await expectFitsAndPhotograph(page, 'topics-list');
  await page.getByRole('link', { name: 'Product updates' }).click();

  // Members: an unknown ID is reported and stays in the box; the known ones are added.
  await page.getByLabel('Add subscribers by ID').fill('ana, bruno\nnobody');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'No subscriber has the ID nobody' }),
  ).toBeVisible();
  await expect(page.getByLabel('Add subscribers by ID')).toHaveValue('nobody');
  await expect(page.getByRole('heading', { name: 'Subscribers (2)' })).toBeVisible();
  const saved = await (await topicOf(request, org.adminToken, 'product-updates')).json();
  expect(saved.data.subscribers.sort()).toEqual(['ana', 'bruno']);

  // Rename: empty refused, then saved.
  await page.getByLabel('Topic name').fill('  ');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('Enter a name')).toBeVisible();
  await page.getByLabel('Topic name').fill('Release notes');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Release notes' })).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'topics-detail');

  // Deleting while subscribers remain: the server refuses, the dialog says why.
  await page.getByRole('button', { name: 'Delete the topic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Release notes?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog.getByRole('alert')).toContainText('still has subscribers assigned');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Remove ana from the topic' }).click();
  await page.getByRole('button', { name: 'Remove bruno from the topic' }).click();
  await expect(page.getByText('No subscriber in this topic yet')).toBeVisible();
  await page.getByRole('button', { name: 'Delete the topic' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Topics' })).toBeVisible();
  expect((await topicOf(request, org.adminToken, 'product-updates')).status()).toBe(404);

  // A link to a topic that is gone says so, and where to go.
  await page.goto('/console/topics/product-updates');
  await expect(page.getByRole('status')).toContainText(
    'No topic has the key product-updates in this environment.',
  );
  await expect(page.getByRole('link', { name: 'See the topics' })).toBeVisible();
});

test('topics: a member manages topics too, as the server lets them', async ({ page, request }) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org);
  const made = await request.post('/v1/topics', {
    headers: bearer(grace.token),
    data: { key: 'by-grace', name: 'Made by Grace' },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.context().clearCookies();
  await signInAs(page, grace.email);
  await page.goto('/console/topics');
  await expect(page.getByRole('button', { name: 'Create a topic' })).toBeVisible();
  await page.getByRole('link', { name: 'Made by Grace' }).click();
  await expect(page.getByRole('button', { name: 'Delete the topic' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rename' })).toBeVisible();
});
