import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { newOrganization, type Organization } from './organizations.js';

// The console's Analytics section (decision 055's GET /v1/analytics/deliveries): empty before
// anything is sent, then the numbers of notifications triggered through the API (the sandbox
// e-mail provider and the in-app channel deliver in e2e), the same as the server's answer;
// filters and the period in the URL; a server refusal shown. Each test has an organization of
// its own, so its numbers are nobody else's.

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const TRIGGERS = 3;

async function sendSome(request: APIRequestContext, org: Organization) {
  const name = `Analytics e2e ${Date.now()}`;
  const identifier = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const created = await request.post('/v1/workflows', {
    headers: bearer(org.adminToken),
    data: {
      name,
      identifier,
      active: true,
      steps: [
        { template: { type: 'in_app', content: 'Your booking {{code}} is confirmed' } },
        {
          template: { type: 'email', subject: 'Booking {{code}}', content: 'Confirmed: {{code}}' },
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  for (let i = 0; i < TRIGGERS; i++) {
    const triggered = await request.post('/v1/events/trigger', {
      headers: bearer(org.adminToken),
      data: {
        name: identifier,
        to: { subscriberId: `reader-${i}`, email: `reader-${i}@people.example` },
        payload: { code: `R-${i}` },
      },
    });
    expect(triggered.status(), await triggered.text()).toBe(201);
  }
}

/** The server's numbers for the last 7 days, once every trigger's two messages are counted. */
async function serverNumbers(request: APIRequestContext, org: Organization) {
  const day = 24 * 60 * 60 * 1000;
  const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
  const from = new Date(Math.floor(Date.now() / day) * day - 6 * day);
  const ask = async () => {
    const answer = await request.get(
      `/v1/analytics/deliveries?from=${from.toISOString()}&to=${to.toISOString()}&granularity=day`,
      { headers: bearer(org.adminToken) },
    );
    expect(answer.status(), await answer.text()).toBe(200);
    return (
      (await answer.json()) as {
        data: {
          totals: Record<string, number | null>;
          providers: { channel: string; providerId: string; sent: number }[];
        };
      }
    ).data;
  };
  await expect.poll(async () => (await ask()).totals.sent, { timeout: 30_000 }).toBe(TRIGGERS * 2);
  return ask();
}

test('analytics: empty at first, then the numbers of what was sent, as the server counts them', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const org = await newOrganization(page, request, 'Analytics numbers');
  await page.goto('/console/get-started');
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Nothing was sent in the last 7 days' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get started' }).last()).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'analytics-empty');

  await sendSome(request, org);
  const numbers = await serverNumbers(request, org);
  await page.reload();
  const totals = page.getByTestId('totals');
  const tile = (label: string) =>
    totals
      .locator('div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd');
  await expect(tile('Sent')).toHaveText(String(TRIGGERS * 2));
  for (const [label, key] of [
    ['Sent', 'sent'],
    ['Delivered', 'delivered'],
    ['Failed', 'failed'],
    ['Bounced', 'bounced'],
    ['Failovers', 'failovers'],
    ['Retries', 'retries'],
  ] as const)
    await expect(tile(label), label).toHaveText(String(numbers.totals[key]));
  await expect(tile('p50 to delivery')).toHaveText(/^\d+(\.\d)? (ms|s)$/);
  await expect(tile('p99 to delivery')).toHaveText(/^\d+(\.\d)? (ms|s)$/);

  // Per provider: the in-app channel (Sino itself) and the sandbox e-mail provider.
  const providers = page.getByTestId('providers-table');
  for (const name of ['In-app sino', 'Email novu-email']) {
    const row = providers.getByRole('row', { name: new RegExp(`^${name} `) });
    // The channel, then (after the provider's row header) sent, delivered, failed, bounced.
    await expect(row.getByRole('cell').nth(1)).toHaveText(String(TRIGGERS));
  }
  expect(numbers.providers.map((p) => `${p.channel}/${p.providerId}/${p.sent}`).sort()).toEqual([
    `email/novu-email/${TRIGGERS}`,
    `in_app/sino/${TRIGGERS}`,
  ]);

  // Each chart's numbers as a table, opened with the keyboard.
  const figure = page.getByRole('figure', { name: 'Deliveries over time' });
  await expect(figure).toContainText(`${TRIGGERS * 2} sent`);
  await figure.locator('summary').focus();
  await page.keyboard.press('Enter');
  const table = figure.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(
    String(TRIGGERS * 2),
  );
  await expect(page.getByRole('figure', { name: 'By channel' })).toContainText(
    `Email: ${TRIGGERS} sent`,
  );
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'analytics');

  // Keyboard: Tab goes from the period to the channel and the provider.
  await page.getByLabel('Period', { exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Channel', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Provider', { exact: true })).toBeFocused();

  // One channel: its numbers alone, the view in the URL (a link).
  await page.getByLabel('Channel', { exact: true }).selectOption({ label: 'Email' });
  await expect(page).toHaveURL(/channel=email/);
  await expect(tile('Sent')).toHaveText(String(TRIGGERS));
  await expect(page.getByRole('figure', { name: 'By channel' })).toHaveCount(0);
  await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Last 24 hours' });
  await expect(page).toHaveURL(/period=24h/);
  await page.reload();
  await expect(page.getByLabel('Channel', { exact: true })).toHaveValue('email');
  await expect(tile('Sent')).toHaveText(String(TRIGGERS));
  await expect(page.getByRole('figure', { name: 'Deliveries over time' })).toContainText(
    'Per hour',
  );

  // A provider of another channel: nothing matches; one press shows everything again.
  await page.getByLabel('Provider', { exact: true }).selectOption('sino');
  await expect(
    page.getByRole('heading', { name: 'Nothing matches these filters in the last 24 hours' }),
  ).toBeVisible();
  await expectFitsAndPhotograph(page, 'analytics-empty-filtered');
  await page.getByRole('button', { name: 'Show every channel and provider' }).click();
  await expect(page).toHaveURL(/\/console\/analytics\?period=24h$/);
  await expect(tile('Sent')).toHaveText(String(TRIGGERS * 2));
});

test('analytics: a refusal of the server is shown, and a retry reads again', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await newOrganization(page, request, 'Analytics refusal');
  // The server's own 400: a range that ends before it starts, as a broken client would ask.
  let broken = true;
  await page.route(/\/v1\/analytics\/deliveries\?/, async (route) => {
    if (!broken) return route.continue();
    const url = new URL(route.request().url());
    url.searchParams.set('to', '2020-01-01T00:00:00Z');
    await route.continue({ url: url.toString() });
  });
  await page.goto('/console/analytics');
  await expect(page.getByRole('alert')).toContainText('must be later than from');
  await expectFitsAndPhotograph(page, 'analytics-error');
  broken = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(
    page.getByRole('heading', { name: 'Nothing was sent in the last 7 days' }),
  ).toBeVisible();
});

test('analytics: the sign-in page loads no chart code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  await page.goto('/console/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) {
    const body = await (await page.request.get(url)).text();
    expect(body, url).not.toContain('recharts');
  }
});
