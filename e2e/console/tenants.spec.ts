import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { addMember, newOrganization, signInAs } from './organizations.js';

// The console's Tenants section: create, edit name and data, workflow overrides, delete. Each
// test works in an organization of its own.

test.describe.configure({ timeout: 300_000 });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function tenantOf(request: APIRequestContext, token: string, identifier: string) {
  return request.get(`/v1/tenants/${identifier}`, { headers: bearer(token) });
}

test('tenants: create, edit, override a workflow, delete', async ({ page, request }) => {
  const org = await newOrganization(page, request);
  const workflow = await request.post('/v1/workflows', {
    headers: bearer(org.adminToken),
    data: {
      name: 'Invoice ready',
      identifier: 'invoice-ready',
      active: true,
      steps: [{ template: { type: 'email', subject: 'Invoice', content: 'Ready' } }],
    },
  });
  expect(workflow.status(), await workflow.text()).toBe(201);
  const workflowId = ((await workflow.json()) as { data: { _id: string } }).data._id;
  // A hundred newer ones: the workflows list pages newest first, and Invoice ready is on the
  // second page, where the overrides must still reach it.
  for (let batch = 0; batch < 10; batch++)
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const n = batch * 10 + i;
        const made = await request.post('/v1/workflows', {
          headers: bearer(org.adminToken),
          data: {
            name: `Filler ${n}`,
            identifier: `filler-${n}`,
            steps: [{ template: { type: 'in_app', content: 'Filler' } }],
          },
        });
        expect(made.status(), await made.text()).toBe(201);
      }),
    );

  await page.goto('/console/tenants');
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
  await expect(page.getByText('No tenant yet')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'tenants-empty');

  // Keyboard: Enter on the create button; bad JSON and identifier said, nothing saved.
  await page.getByRole('button', { name: 'Create a tenant' }).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Name').fill('Acme');
  await page.getByLabel('Identifier', { exact: true }).fill('acme corp');
  await page.getByLabel('Data (JSON)').fill('["not", "an object"]');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Use only letters, digits')).toBeVisible();
  await expect(page.getByText('Enter a JSON object')).toBeVisible();
  expect((await tenantOf(request, org.adminToken, 'acme')).status()).toBe(404);
  await expectFitsAndPhotograph(page, 'tenants-new-invalid');

  await page.getByLabel('Identifier', { exact: true }).fill('acme');
  await page.getByLabel('Data (JSON)').fill('{"plan": "gold"}');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acme' })).toBeVisible();
  const saved = await (await tenantOf(request, org.adminToken, 'acme')).json();
  expect(saved.data.data).toEqual({ plan: 'gold' });

  // Found by its identifier from the list; one no tenant has is said.
  await page.goto('/console/tenants');
  await page.getByLabel('Find by tenant identifier').fill('globex');
  await page.keyboard.press('Enter');
  await expect(page.getByText('No tenant has the identifier globex')).toBeVisible();
  await page.goto('/console/tenants');
  await page.getByLabel('Find by tenant identifier').fill('acme');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acme' })).toBeVisible();

  // The same identifier again: the server's refusal shown, what was typed kept.
  await page.goto('/console/tenants');
  await page.getByRole('button', { name: 'Create a tenant' }).click();
  await page.getByLabel('Name').fill('Acme again');
  await page.getByLabel('Identifier', { exact: true }).fill('acme');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Acme again');
  await expectFitsAndPhotograph(page, 'tenants-list');
  await page.getByRole('link', { name: 'Acme', exact: true }).click();
  // The list's create form has a Name field too: wait for the tenant's page before typing.
  await expect(page.getByRole('heading', { level: 1, name: 'Acme' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save the tenant' })).toBeVisible();

  // Edit name and data.
  await page.getByLabel('Name').fill('Acme Inc.');
  await page.getByLabel('Data (JSON)').fill('{"plan": "platinum"}');
  await page.getByRole('button', { name: 'Save the tenant' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The tenant was saved.' })).toBeVisible();
  const edited = await (await tenantOf(request, org.adminToken, 'acme')).json();
  expect(edited.data).toMatchObject({ name: 'Acme Inc.', data: { plan: 'platinum' } });

  // Override: e-mail off for this tenant only, then back to the workflow's own settings.
  const row = page.getByTestId('override-row').filter({ hasText: 'Invoice ready' });
  await expect(row).toContainText('As for everyone');
  await row.getByLabel('E-mail').uncheck();
  await expect(row).toContainText('Overridden');
  await expect(row.getByLabel('E-mail')).not.toBeChecked();
  const pair = await request.get(
    `/v1/workflow-overrides/workflows/${workflowId}/tenants/${edited.data._id}`,
    { headers: bearer(org.adminToken) },
  );
  expect(pair.status(), await pair.text()).toBe(200);
  expect((await pair.json()).data).toMatchObject({
    active: true,
    preferenceSettings: { email: false, in_app: true },
  });
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'tenants-detail');
  await row.getByRole('button', { name: 'Remove the override of Invoice ready' }).click();
  await expect(row).toContainText('As for everyone');

  // Delete: Escape keeps it; Delete removes it.
  const deleteButton = page.getByRole('button', { name: 'Delete the tenant' });
  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Delete Acme Inc.?' });
  await page.keyboard.press('Escape');
  await expect(deleteButton).toBeFocused();
  await deleteButton.click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
  expect((await tenantOf(request, org.adminToken, 'acme')).status()).toBe(404);

  // A link to a tenant that is gone says so, and where to go.
  await page.goto('/console/tenants/acme');
  await expect(page.getByRole('status')).toContainText(
    'No tenant has the identifier acme in this environment.',
  );
  await page.getByRole('link', { name: 'See the tenants' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
});

test('tenants: in Production the server keeps overrides to Development, and says so', async ({
  page,
  request,
}) => {
  await newOrganization(page, request);
  await page.goto('/console/tenants');
  await page.getByLabel('Environment').selectOption({ label: 'Production' });
  await page.getByRole('button', { name: 'Create a tenant' }).click();
  await page.getByLabel('Name').fill('Globex');
  await page.getByLabel('Identifier', { exact: true }).fill('globex');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Globex' })).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'only allowed in Development' }),
  ).toBeVisible();
  await expectFitsAndPhotograph(page, 'tenants-detail-production');
});

test('tenants: a member manages tenants too, as the server lets them', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org);
  const made = await request.post('/v1/tenants', {
    headers: bearer(grace.token),
    data: { identifier: 'by-grace', name: 'Made by Grace' },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.context().clearCookies();
  await signInAs(page, grace.email);
  await page.goto('/console/tenants');
  await expect(page.getByRole('button', { name: 'Create a tenant' })).toBeVisible();
  await page.getByRole('link', { name: 'Made by Grace' }).click();
  await expect(page.getByRole('button', { name: 'Delete the tenant' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save the tenant' })).toBeVisible();
});
