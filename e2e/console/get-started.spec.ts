import { expect, test } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { newOrganization } from './organizations.js';

// Get started's "Send your first notification": the person triggers a workflow to themselves
// and sees it arrive, live, in the `@sino/react` inbox on the page. Each test signs up an
// organization of its own (sign-up is open on the e2e server), so its workflow, subscriber and
// integrations are nobody else's.

const ARRIVED = 'Your first notification from Sino arrived, Ada.';

test('sends a first notification to yourself and shows it arrive in the live inbox', async ({
  page,
  request,
}) => {
  // Two live sends, then axe in two themes and two widths over a page with an inbox in it.
  test.slow();
  const token = (await newOrganization(page, request)).adminToken;
  await page.goto('/console/get-started');
  const step = page.getByRole('region', { name: '3. Send your first notification' });
  const send = step.getByRole('button', { name: 'Send a notification to yourself' });
  await expect(send).toBeVisible();
  // No inbox (and no subscriber) until asked for.
  await expect(step.getByText(ARRIVED)).toHaveCount(0);

  // By keyboard: focus the button and press Enter.
  await send.focus();
  await page.keyboard.press('Enter');
  await expect(step.getByText(/it arrives in the inbox below/)).toBeVisible();
  await expect(step.getByText(ARRIVED)).toHaveCount(1);

  // The workflow was made once, in this environment, with its in-app step.
  const workflow = await page.request.get('/v1/workflows/sino-get-started', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(workflow.status()).toBe(200);
  const { data } = (await workflow.json()) as {
    data: { active: boolean; steps: { template: { type: string } }[] };
  };
  expect(data.active).toBe(true);
  expect(data.steps.map((s) => s.template.type)).toEqual(['in_app']);

  // Again: the same workflow, a second notification at the top, live.
  await send.click();
  await expect(step.getByText(ARRIVED)).toHaveCount(2);

  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'get-started-first-notification');
});

test('says what to do when nothing can be sent from here', async ({ page, request }) => {
  const token = (await newOrganization(page, request)).adminToken;
  const authorization = `Bearer ${token}`;
  // No active in-app integration: the step says where to connect one.
  const list = await page.request.get('/v1/integrations', { headers: { authorization } });
  const inApp = ((await list.json()) as { data: { _id: string; channel: string }[] }).data.find(
    (i) => i.channel === 'in_app',
  )!;
  const off = await page.request.put(`/v1/integrations/${inApp._id}`, {
    headers: { authorization },
    data: { active: false },
  });
  expect(off.status(), await off.text()).toBe(200);
  await page.goto('/console/get-started');
  const step = page.getByRole('region', { name: '3. Send your first notification' });
  await expect(step).toContainText('no active in-app integration');
  await expect(step.getByRole('button', { name: 'Send a notification to yourself' })).toHaveCount(
    0,
  );

  // Production: workflows come by promotion, so the step points to Development.
  await page.getByLabel('Environment', { exact: true }).selectOption({ label: 'Production' });
  await expect(step).toContainText('switch to the Development environment');
  await expectAccessibleInBothThemes(page);
});
