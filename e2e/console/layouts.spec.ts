import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { addMember, newOrganization, signInAs } from './organizations.js';

// The console's Layouts section: create, edit, the server's preview in the sandboxed frame,
// default, delete (refused for the default). Each test works in an organization of its own.

test.describe.configure({ timeout: 300_000 });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function layouts(request: APIRequestContext, token: string) {
  const answer = await request.get('/v1/layouts?pageSize=100', { headers: bearer(token) });
  return (
    (await answer.json()) as {
      data: {
        name: string;
        isDefault: boolean;
        content: string;
        variables: { name: string; type: string; required: boolean; defaultValue?: unknown }[];
      }[];
    }
  ).data;
}

test('layouts: create, edit, preview, default and delete', async ({ page, request }) => {
  const org = await newOrganization(page, request);
  const before = await layouts(request, org.adminToken);

  await page.goto('/console/layouts');
  await expect(page.getByRole('heading', { level: 1, name: 'Layouts' })).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'layouts-list-start');

  // Keyboard to the create link; without {{{body}}} nothing is sent.
  await page.getByRole('link', { name: 'Create a layout' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Create a layout' })).toBeVisible();
  await page.getByLabel('Name').fill('Marketing');
  await page.getByLabel('Identifier').fill('marketing');
  // The preview follows the HTML as it is typed, before anything is saved.
  const newPreview = page.frameLocator('iframe[title="Preview of the layout being created"]');
  await expect(newPreview.getByText('This is where each e-mail’s own content goes.')).toBeVisible();
  await page.getByLabel('HTML content').fill('<div>No body here</div>');
  await expect(newPreview.getByText('No body here')).toBeVisible();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Place each e-mail’s content with {{{body}}}')).toBeVisible();
  expect(await layouts(request, org.adminToken)).toHaveLength(before.length);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'layouts-new-invalid');

  await page
    .getByLabel('HTML content')
    .fill(
      '<div style="border-top:4px solid #5b21b6">{{{body}}}<footer>{{footerText}}</footer>{{#each tags}}<i>{{this}}</i>{{/each}}</div>',
    );
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Marketing' })).toBeVisible();
  // The server read the variables from the HTML; its preview is in the sandboxed frame.
  await expect(page.getByTestId('layout-variable')).toHaveText([
    /footerText\s*String/,
    /tags\s*Array/,
  ]);
  const frame = page.getByTitle('Preview of the layout Marketing');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(
    page
      .frameLocator('iframe[title="Preview of the layout Marketing"]')
      .getByText('This is where each e-mail’s own content goes.'),
  ).toBeVisible();

  // The variables' defaults: an Array's must be a JSON array (said, nothing saved); then saved,
  // and the preview fills them in.
  await page.getByLabel('Default of footerText').fill('Locadora Centro');
  await page.getByLabel('Default of tags').fill('sale, new');
  await page.getByRole('button', { name: 'Save the variables' }).click();
  await expect(
    page.getByText('Enter a JSON array, like ["a", "b"], or leave it empty'),
  ).toBeVisible();
  await expect(page.getByLabel('Default of tags')).toHaveAttribute('aria-invalid', 'true');
  const stored = async () =>
    (await layouts(request, org.adminToken)).find((l) => l.name === 'Marketing')!.variables;
  expect((await stored()).map((v) => v.defaultValue)).toEqual([undefined, undefined]);
  await page.getByLabel('Default of tags').fill('["sale", "new"]');
  await page.getByRole('checkbox', { name: 'Required' }).first().check();
  await page.getByRole('button', { name: 'Save the variables' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The variables were saved.' }),
  ).toBeVisible();
  expect(await stored()).toEqual([
    { name: 'footerText', type: 'String', required: true, defaultValue: 'Locadora Centro' },
    { name: 'tags', type: 'Array', required: false, defaultValue: ['sale', 'new'] },
  ]);
  const marketingPreview = page.frameLocator('iframe[title="Preview of the layout Marketing"]');
  await expect(marketingPreview.getByText('Locadora Centro')).toBeVisible();
  await expect(marketingPreview.getByText('sale')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'layouts-variables');

  // Searched from the list, by a part of the name in any case, in the address.
  await page.goto('/console/layouts');
  await page.getByLabel('Search by name or identifier').fill('MARKET');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/console\/layouts\?search=MARKET$/);
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(2); // the header and Marketing
  await expect(rows.nth(1)).toContainText('marketing');
  await page.getByLabel('Search by name or identifier').fill('no such layout');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(
    page.getByText('No layout’s name or identifier holds “no such layout”'),
  ).toBeVisible();
  await expectFitsAndPhotograph(page, 'layouts-search-empty');
  await page.getByRole('link', { name: 'Clear the search' }).click();
  await expect(page).toHaveURL(/\/console\/layouts$/);
  await expect(page.getByLabel('Search by name or identifier')).toHaveValue('');
  await page.getByRole('link', { name: 'Marketing', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Marketing' })).toBeVisible();

  // Edit: the preview follows the draft before it is saved; a draft the server cannot read is
  // said there; then saved.
  const preview = page.frameLocator('iframe[title="Preview of the layout Marketing"]');
  await page.getByLabel('Description').fill('For campaigns');
  await page.getByLabel('HTML content').fill('<div>{{#if}}{{{body}}}</div>');
  await expect(page.getByRole('alert').filter({ hasText: 'layout' })).toBeVisible();
  await page
    .getByLabel('HTML content')
    .fill('<div>{{{body}}}<footer>Unsubscribe any time</footer></div>');
  await expect(preview.getByText('Unsubscribe any time')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(
    (await layouts(request, org.adminToken)).find((l) => l.name === 'Marketing')?.content,
  ).toContain('footerText');
  await page.getByRole('button', { name: 'Save the layout' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The layout was saved.' })).toBeVisible();
  await expect(preview.getByText('Unsubscribe any time')).toBeVisible();

  // A server refusal: an identifier another layout has (when there is one), else the default
  // cannot be deleted.
  await page.getByRole('button', { name: 'Make it the default' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Marketing\s*Default/ })).toBeVisible();
  expect((await layouts(request, org.adminToken)).find((l) => l.isDefault)?.name).toBe('Marketing');
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'layouts-detail');
  const deleteButton = page.getByRole('button', { name: 'Delete the layout' });
  await deleteButton.click();
  const dialog = page.getByRole('dialog', { name: 'Delete Marketing?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(deleteButton).toBeFocused();
  expect((await layouts(request, org.adminToken)).map((l) => l.name)).toContain('Marketing');

  // Another layout: not the default, so it can be deleted.
  await page.goto('/console/layouts/new');
  await page.getByLabel('Name').fill('Plain');
  await page.getByLabel('Identifier').fill('plain');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plain' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete the layout' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Plain?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Layouts' })).toBeVisible();
  expect((await layouts(request, org.adminToken)).map((l) => l.name)).not.toContain('Plain');
  await expectFitsAndPhotograph(page, 'layouts-list');
});

test('layouts: a member manages layouts too, as the server lets them', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const grace = await addMember(request, org);
  const made = await request.post('/v1/layouts', {
    headers: bearer(grace.token),
    data: { name: 'Made by Grace', identifier: 'by-grace', content: '<main>{{{body}}}</main>' },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.context().clearCookies();
  await signInAs(page, grace.email);
  await page.goto('/console/layouts');
  await expect(page.getByRole('link', { name: 'Create a layout' })).toBeVisible();
  await page.getByRole('link', { name: 'Made by Grace' }).click();
  await expect(page.getByRole('button', { name: 'Save the layout' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete the layout' })).toBeVisible();
});
