import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph, signIn } from './apoio.js';
import { newOrganization, productionToken } from './organizations.js';

// The console's activity feed: a trigger made through the server API shows at the top without a
// reload, its detail follows the steps to their final status over the console's socket, the
// filters live in the URL, and the loading, empty, not-found and error states.

// One at a time: the tests trigger in the same environment (the first admin's Development), and
// the first test checks what arrives at the top of its list.
test.describe.configure({ mode: 'serial' });

let sequence = 0;

/** The signed-in environment's API key, as Get started shows it. */
async function apiKeyOf(page: Page): Promise<string> {
  const key = (await page.getByTestId('api-key').textContent())?.trim();
  expect(key).toBeTruthy();
  return key!;
}

/** An active workflow made through the server API: a short delay, then in-app and e-mail. */
async function createWorkflow(request: APIRequestContext, key: string) {
  const name = `Activity e2e ${Date.now()}-${++sequence}`;
  const identifier = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const response = await request.post('/v1/workflows', {
    headers: { authorization: `ApiKey ${key}` },
    data: {
      name,
      identifier,
      active: true,
      steps: [
        // Long enough to open the detail while the notification is still running.
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 4, unit: 'seconds' } },
        { template: { type: 'in_app', content: 'Your booking {{code}} is confirmed' } },
        {
          template: { type: 'email', subject: 'Booking {{code}}', content: 'Confirmed: {{code}}' },
        },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: { _id: string } };
  return { id: data._id, name, identifier };
}

async function trigger(request: APIRequestContext, key: string, identifier: string) {
  const transactionId = `tx-${Date.now()}-${++sequence}`;
  const response = await request.post('/v1/events/trigger', {
    headers: { authorization: `ApiKey ${key}` },
    data: {
      name: identifier,
      to: { subscriberId: `ana-${sequence}`, firstName: 'Ana', email: 'ana@people.example' },
      payload: { code: 'R-42' },
      transactionId,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return transactionId;
}

async function openActivity(page: Page) {
  await page.getByRole('link', { name: 'Activity feed' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity feed' })).toBeVisible();
}

test('activity: a trigger appears live at the top; its detail reaches the final status live', async ({
  page,
  request,
}) => {
  // A real 4-second delay step followed live to its end, then axe in two themes and
  // screenshots at two widths: over a minute when the two cores are shared (a CI run timed out
  // at its last screenshot).
  test.slow();
  await signIn(page);
  const key = await apiKeyOf(page);
  const workflow = await createWorkflow(request, key);
  await openActivity(page);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();

  // No reload: the socket's notification_created brings it in, and it is announced politely.
  const transactionId = await trigger(request, key, workflow.identifier);
  const first = page
    .getByRole('list', { name: 'Notifications, newest first' })
    .getByRole('listitem')
    .first();
  await expect(first).toContainText(workflow.name);
  await expect(first).toContainText(transactionId);
  await expect(page.locator('[aria-live="polite"][role="status"]')).toHaveText(
    new RegExp(`New notification.*${workflow.name}`),
  );

  // Keyboard: the item is a link; Enter opens it and the reader lands on its heading.
  await first.getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/console\/activity\/[0-9a-f]{24}$/);
  const heading = page.getByRole('heading', { level: 1, name: workflow.name });
  await expect(heading).toBeFocused();
  const steps = page.getByTestId('activity-step');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(0).getByRole('heading')).toHaveText('1. Delay');
  await expect(steps.nth(1).getByRole('heading')).toHaveText('2. In-app');
  await expect(steps.nth(2).getByRole('heading')).toHaveText('3. Email');
  // Opened during the delay: the page then follows the steps without a reload.
  await expect(page.locator('.summary')).toContainText('In progress');
  await expectFitsAndPhotograph(page, 'activity-detail-running');

  await expect(page.locator('.summary')).toContainText('Completed', { timeout: 30_000 });
  for (const i of [0, 1, 2])
    await expect(steps.nth(i).locator('.step-statuses')).toContainText('Completed');
  // The sandbox e-mail provider accepted the e-mail: a message with its delivery status.
  await expect(steps.nth(2).locator('.step-statuses')).toContainText(/Sent|Delivered/);
  const timeline = steps.nth(2).getByRole('list', { name: 'Execution of step 3' });
  await expect(timeline.getByRole('listitem').first()).toBeVisible();
  await expect(timeline).toContainText('Success');

  // The provider's answer: collapsed at first, formatted JSON once opened.
  const raw = steps.nth(2).locator('details.raw').last();
  await expect(raw).not.toHaveAttribute('open', '');
  await raw.locator('summary').click();
  await expect(raw.locator('pre')).toBeVisible();
  expect(JSON.parse((await raw.locator('pre').textContent())!)).toBeTruthy();

  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'activity-detail');

  // A deep link opens the same page after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: workflow.name })).toBeVisible();
  await page.getByRole('link', { name: '← All activity' }).click();
  await expect(page).toHaveURL(/\/console\/activity$/);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'activity-feed');
});

test("activity: switched to Production on the page, the feed hears Production's triggers live", async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const keyOf = async (token: string) => {
    const keys = await request.get('/v1/environments/api-keys', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(keys.status(), await keys.text()).toBe(200);
    return ((await keys.json()) as { data: { key: string }[] }).data[0]!.key;
  };
  // Made in Development and promoted: Production takes workflows from promotions only.
  const developmentKey = await keyOf(org.adminToken);
  const workflow = await createWorkflow(request, developmentKey);
  const pending = await request.get('/v1/changes?promoted=false', {
    headers: { authorization: `ApiKey ${developmentKey}` },
  });
  const changeIds = ((await pending.json()) as { data: { _id: string }[] }).data.map((c) => c._id);
  const promoted = await request.post('/v1/changes/bulk/apply', {
    headers: { authorization: `ApiKey ${developmentKey}` },
    data: { changeIds },
  });
  expect(promoted.status(), await promoted.text()).toBe(201);
  const productionKey = await keyOf(await productionToken(request, org.adminEmail));

  // The registration signed the page in (its refresh cookie).
  await page.goto('/console/activity');
  await expect(page.getByRole('heading', { name: 'No activity yet' })).toBeVisible();
  await page.getByLabel('Environment', { exact: true }).selectOption({ label: 'Production' });
  await expect(
    page.getByLabel('Environment', { exact: true }).locator('option:checked'),
  ).toHaveText('Production');
  await expect(page.getByRole('heading', { name: 'No activity yet' })).toBeVisible();

  // Production's feed was read empty: a trigger shows only if the socket now listens to
  // Production. Until it has connected an event may be missed, so trigger again until heard.
  const list = page.getByRole('list', { name: 'Notifications, newest first' });
  await expect(async () => {
    const transactionId = await trigger(request, productionKey, workflow.identifier);
    await expect(list).toContainText(transactionId, { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
});

test('activity: the filters are in the URL, so a filtered view is a link; empty and invalid filters', async ({
  page,
  request,
}) => {
  await signIn(page);
  const key = await apiKeyOf(page);
  const workflow = await createWorkflow(request, key);
  const transactionId = await trigger(request, key, workflow.identifier);

  await page.goto(`/console/activity?transactionId=${transactionId}`);
  await expect(page.getByLabel('Transaction ID')).toHaveValue(transactionId);
  const items = page
    .getByRole('list', { name: 'Notifications, newest first' })
    .getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(workflow.name);

  // Narrowing further through the form: the workflow and the channel go into the URL.
  await page.getByLabel('Workflow').selectOption({ label: workflow.name });
  await page.getByLabel('Channel').selectOption({ label: 'Email' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`workflow=${workflow.id}`));
  await expect(page).toHaveURL(/channel=email/);
  await expect(items).toHaveCount(1);

  // A link of the filtered view, opened afresh, shows the same.
  const link = page.url();
  await page.goto(link);
  await expect(page.getByLabel('Workflow')).toHaveValue(workflow.id);
  await expect(page.getByLabel('Channel')).toHaveValue('email');
  await expect(items).toHaveCount(1);

  // No step of it sends SMS, and none is skipped: empty.
  await page.getByLabel('Channel').selectOption({ label: 'SMS' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(
    page.getByRole('heading', { name: 'No activity matches these filters' }),
  ).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'activity-empty-filtered');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/console\/activity$/);
  await expect(page.getByLabel('Transaction ID')).toHaveValue('');

  await page.goto(`/console/activity?transactionId=${transactionId}&status=skipped`);
  await expect(page.getByLabel('Step status')).toHaveValue('skipped');
  await expect(
    page.getByRole('heading', { name: 'No activity matches these filters' }),
  ).toBeVisible();

  // Dates: the days of today's trigger find it; a range in the past does not; an end before the
  // start is refused in the form, nothing changes.
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
  await page.goto(`/console/activity?transactionId=${transactionId}&from=${today}&to=${today}`);
  await expect(items).toHaveCount(1);
  await page.goto(`/console/activity?transactionId=${transactionId}&from=2020-01-01&to=2020-01-31`);
  await expect(
    page.getByRole('heading', { name: 'No activity matches these filters' }),
  ).toBeVisible();
  await page.getByLabel('From').fill('2020-02-10');
  await page.getByLabel('To').fill('2020-02-01');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The end date must be on or after the start date.',
  );
  await expect(page.getByLabel('To')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/to=2020-01-31/);
});

test('activity: loading, server errors with a retry, and an unknown notification', async ({
  page,
}) => {
  await signIn(page);
  // The list's answer held back, then failing: the loading state, then the error with a retry.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let fail = true;
  await page.route(/\/v1\/notifications\?/, async (route) => {
    await held;
    if (fail) await route.fulfill({ status: 500, json: { statusCode: 500, message: 'boom' } });
    else await route.continue();
  });
  await openActivity(page);
  await expect(page.getByRole('status').filter({ hasText: 'Loading activity…' })).toBeVisible();
  await expectFitsAndPhotograph(page, 'activity-loading');
  release();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The server ran into an error', { timeout: 20_000 });
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'activity-error');
  fail = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('list', { name: 'Notifications, newest first' })).toBeVisible();

  // A link to a notification this environment does not have.
  await page.goto('/console/activity/0123456789abcdef01234567');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Notification not found' }),
  ).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'activity-not-found');
  await page.getByRole('link', { name: '← All activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity feed' })).toBeVisible();
});
