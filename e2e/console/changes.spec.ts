import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import {
  addMember,
  newOrganization,
  productionToken,
  signInAs,
  type Organization,
} from './organizations.js';

// The console's Changes section (Novu's promotion, decision 052): a workflow made in
// Development through the API waits with its difference, an admin promotes it (one, then all),
// Production has it (read through the API), and a promotion is rolled back; a member sees the
// changes without the controls and the server refuses her; Production says where changes come
// from. Each test has an organization of its own.

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createWorkflow(request: APIRequestContext, org: Organization, name: string) {
  const identifier = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const response = await request.post('/v1/workflows', {
    headers: bearer(org.adminToken),
    data: {
      name,
      identifier,
      active: true,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Booking {{code}}',
            content: 'Hello {{name}},\nyour booking {{code}} is confirmed.\nSee you soon.',
          },
        },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: { _id: string } };
  return { id: data._id, identifier };
}

async function productionWorkflows(request: APIRequestContext, org: Organization) {
  const token = await productionToken(request, org.adminEmail);
  const answer = await request.get('/v1/workflows?limit=100', { headers: bearer(token) });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: { name: string; identifier: string }[] }).data;
}

async function openChanges(page: Page) {
  await page.getByRole('link', { name: /^Changes/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Changes' })).toBeVisible();
}

test('changes: a workflow waits with its difference, is promoted, changed, promoted again and rolled back', async ({
  page,
  request,
}) => {
  // A long story (two promotions, a refusal, a rollback), with axe and photographs on the way.
  test.setTimeout(300_000);
  const org = await newOrganization(page, request);
  const name = `Booking confirmed ${Date.now()}`;
  const workflow = await createWorkflow(request, org, name);

  await page.goto('/console/get-started');
  // The navigation counts what waits.
  const link = page.getByRole('link', { name: /^Changes/ });
  await expect(link.getByTestId('pending-changes-badge')).toHaveText(/\d+/);
  await openChanges(page);
  await expect(page).toHaveURL(/\/console\/changes\/pending$/);
  const card = page.getByTestId('pending-change').filter({ hasText: name });
  await expect(card).toContainText('Workflow');
  await expect(card).toContainText('New');

  // Its difference: what Production would get, field by field.
  await card.getByText(/Difference with Production/).click();
  const diff = card.getByRole('list', { name: `Difference of ${name}` });
  await expect(diff.getByTestId('diff-entry').filter({ hasText: /^Added\s+name/ })).toContainText(
    name,
  );
  await expect(diff.getByTestId('diff-entry').filter({ hasText: /^Added\s+steps/ })).toContainText(
    'your booking {{code}} is confirmed.',
  );
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'changes-pending');

  // Keyboard: Tab reaches the Promote button, Enter opens the confirmation, Cancel is focused.
  const promote = card.getByRole('button', { name: `Promote ${name}` });
  await promote.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Promote ${name} to Production?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'changes-promote-dialog');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Promote' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(`${name} promoted to Production.`);
  await expect(card).toHaveCount(0);
  expect((await productionWorkflows(request, org)).map((w) => w.name)).toContain(name);

  // A change of Development's content: a modification, its lines compared.
  const renamed = `${name} (v2)`;
  const update = await request.put(`/v1/workflows/${workflow.id}`, {
    headers: bearer(org.adminToken),
    data: {
      name: renamed,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Booking {{code}}',
            content: 'Hello {{name}},\nyour booking {{code}} is ready.\nSee you soon.',
          },
        },
      ],
    },
  });
  expect(update.status(), await update.text()).toBe(200);
  await page.reload();
  const modified = page.getByTestId('pending-change').filter({ hasText: renamed });
  await expect(modified).toContainText('Modified');
  await modified.getByText(/Difference with Production/).click();
  const nameEntry = modified.getByTestId('diff-entry').filter({ hasText: /^Changed\s+name/ });
  await expect(nameEntry.locator('del')).toHaveText(name);
  await expect(nameEntry.locator('ins')).toHaveText(renamed);
  const content = modified.getByTestId('diff-entry').filter({ hasText: /content/ });
  await expect(content.locator('del')).toContainText('your booking {{code}} is confirmed.');
  await expect(content.locator('ins')).toContainText('your booking {{code}} is ready.');
  await expectFitsAndPhotograph(page, 'changes-pending-modified');

  // Promote all: every pending change of the organization, confirmed.
  await page.getByRole('button', { name: /^Promote all/ }).click();
  const all = page.getByRole('dialog', { name: /to Production\?$/ });
  await all.getByRole('button', { name: /^Promote/ }).click();
  await expect(page.getByRole('status')).toContainText('promoted to Production.');
  await expect(page.getByRole('heading', { name: 'Nothing waits to be promoted' })).toBeVisible();
  await expect(link.getByTestId('pending-changes-badge')).toHaveCount(0);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'changes-pending-empty');
  expect((await productionWorkflows(request, org)).map((w) => w.name)).toContain(renamed);

  // History: the older promotion of the same workflow cannot be rolled back (the server says
  // why, in the dialog); the newest can.
  await page.getByRole('link', { name: 'Promoted' }).click();
  await expect(page).toHaveURL(/\/console\/changes\/history$/);
  const promoted = page.getByTestId('promoted-change');
  await expect(promoted.first()).toContainText(renamed);
  const older = promoted.filter({ hasText: name }).filter({ hasNotText: renamed });
  await older.getByRole('button', { name: /^Roll back/ }).click();
  const refuse = page.getByRole('dialog', { name: /^Roll back the promotion of/ });
  await refuse.getByRole('button', { name: 'Roll back' }).click();
  await expect(refuse.getByRole('alert')).toHaveText(
    'Only the latest promotion of this entity can be rolled back',
  );
  await expectFitsAndPhotograph(page, 'changes-rollback-refused');
  await page.keyboard.press('Escape');
  await expect(refuse).toHaveCount(0);

  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'changes-history');
  await promoted
    .filter({ hasText: renamed })
    .getByRole('button', { name: `Roll back ${renamed}` })
    .click();
  const confirm = page.getByRole('dialog', { name: `Roll back the promotion of ${renamed}?` });
  await confirm.getByRole('button', { name: 'Roll back' }).click();
  await expect(page.getByRole('status')).toHaveText(`The promotion of ${renamed} was rolled back.`);
  await expect(promoted.filter({ hasText: renamed })).toContainText('Rolled back');
  // Production has the first version again; Development's waits to be promoted again.
  const names = (await productionWorkflows(request, org)).map((w) => w.name);
  expect(names).toContain(name);
  expect(names).not.toContain(renamed);
  await page.getByRole('link', { name: 'Pending' }).click();
  await expect(page.getByTestId('pending-change').filter({ hasText: renamed })).toBeVisible();
});

test('changes: a member sees the changes and their difference, no control, and the server refuses her', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const org = await newOrganization(page, request, 'Member view');
  const name = `Member view ${Date.now()}`;
  await createWorkflow(request, org, name);
  const grace = await addMember(request, org);
  await page.context().clearCookies();
  await signInAs(page, grace.email);
  await openChanges(page);

  const card = page.getByTestId('pending-change').filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(page.getByTestId('members-note')).toContainText('Only admins promote changes');
  await expect(page.getByRole('button', { name: /^Promote/ })).toHaveCount(0);
  await card.getByText(/Difference with Production/).click();
  await expect(card.getByTestId('diff-entry').first()).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'changes-pending-as-member');

  // The server holds the same line: 403 for her, on promoting and on rolling back.
  const pending = await request.get('/v1/changes', { headers: bearer(grace.token) });
  const { data } = (await pending.json()) as { data: { _id: string }[] };
  expect(data.length).toBeGreaterThan(0);
  for (const path of [
    `/v1/changes/${data[0]!._id}/apply`,
    `/v1/changes/${data[0]!._id}/rollback`,
  ]) {
    const refused = await request.post(path, { headers: bearer(grace.token) });
    expect(refused.status(), path).toBe(403);
  }
  const bulk = await request.post('/v1/changes/bulk/apply', {
    headers: bearer(grace.token),
    data: { changeIds: [data[0]!._id] },
  });
  expect(bulk.status()).toBe(403);

  // An admin promotes it; her history lists it without a roll back button.
  const applied = await request.post(`/v1/changes/${data[0]!._id}/apply`, {
    headers: bearer(org.adminToken),
  });
  expect(applied.status(), await applied.text()).toBe(201);
  await page.getByRole('link', { name: 'Promoted' }).click();
  await expect(page.getByTestId('promoted-change').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Roll back/ })).toHaveCount(0);
});

test('changes: Production says changes are made in Development; errors are shown with a retry', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await newOrganization(page, request, 'Production view');
  await page.goto('/console/changes');
  await expect(page.getByRole('heading', { name: 'Nothing waits to be promoted' })).toBeVisible();

  // In Production: no list, where changes come from, and a way back.
  await page.getByLabel('Environment').selectOption({ label: 'Production' });
  await expect(
    page.getByRole('heading', { name: 'Production changes only by promotion' }),
  ).toBeVisible();
  await expect(
    page.getByText('Changes are made in Development and promoted to Production.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Promote/ })).toHaveCount(0);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'changes-production');
  await page.getByRole('button', { name: 'Switch to Development' }).click();
  await expect(page.getByLabel('Environment').locator('option:checked')).toHaveText('Development');
  await expect(page.getByRole('heading', { name: 'Waiting for promotion' })).toBeVisible();

  // The server fails: the message and a retry that works.
  let fail = true;
  await page.route(/\/v1\/changes\?/, async (route) => {
    if (fail) await route.fulfill({ status: 500, json: { statusCode: 500, message: 'boom' } });
    else await route.continue();
  });
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('The server ran into an error');
  await expectFitsAndPhotograph(page, 'changes-error');
  fail = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Nothing waits to be promoted' })).toBeVisible();
});
