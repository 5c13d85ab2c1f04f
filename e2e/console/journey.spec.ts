import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startSmtpPeer, type SmtpPeer } from '@sino/providers/testing';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph } from './apoio.js';
import { newOrganization } from './organizations.js';

// A developer's first day, end to end and through the console only (the trigger excepted,
// which is their application's): a workflow with a digest and a filter built in Development,
// promoted, then triggered in Production through Production's own integrations (Custom SMTP to
// an SMTP server this test starts, and Twilio: the local one e2e/servidor.ts started, which
// reports each text message's delivery to the status callback the developer set), followed in
// Activity to sent and to delivered by webhook; Analytics counts both.

test.describe.configure({ timeout: 480_000 });

let smtp: SmtpPeer;
test.beforeAll(async () => {
  smtp = await startSmtpPeer();
});
test.afterAll(async () => {
  await smtp.close();
});

const TWILIO = { accountSid: `AC${'5'.repeat(32)}`, token: 'journey-twilio-auth-token' };
const twilioUrl = () =>
  (JSON.parse(readFileSync(process.env.E2E_PEERS_FILE!, 'utf8')) as { twilio: string }).twilio;
const twilioAuth = `Basic ${Buffer.from(`${TWILIO.accountSid}:${TWILIO.token}`).toString('base64')}`;

async function switchEnvironment(page: Page, name: 'Development' | 'Production') {
  await page.getByLabel('Environment').selectOption({ label: name });
  await expect(page.getByLabel('Environment').locator('option:checked')).toHaveText(name);
}

async function connect(page: Page, channel: string, providerId: string, fill: () => Promise<void>) {
  await page.getByRole('link', { name: 'Integrations store' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations store' })).toBeVisible();
  await page.goto(`/console/integrations/new/${channel}/${providerId}`);
  await fill();
  await page.getByLabel('Activate it now').check();
  await page.getByRole('button', { name: 'Connect' }).click();
}

test('journey: a digest-and-filter workflow built in Development, promoted, triggered in Production, followed to delivered', async ({
  page,
  request,
}) => {
  await newOrganization(page, request, 'Journey Rentals');
  await page.goto('/console/get-started');

  // 1. Development: the workflow, built in the editor. A 3-second digest, then an e-mail
  // for everyone and a text message only for urgent bookings.
  await page.getByRole('link', { name: 'Workflows' }).click();
  await page.getByRole('link', { name: 'Create a workflow' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Booking updates');
  await expect(page.getByLabel('Identifier')).toHaveValue('booking-updates');
  await page.getByLabel('Step type').selectOption('digest');
  await page.getByRole('button', { name: 'Add step' }).click();
  const editor = page.getByTestId('step-editor');
  await expect(editor.getByRole('heading', { name: 'Step 1: Digest' })).toBeVisible();
  await editor.getByLabel('Digest type').selectOption('regular');
  await editor.getByLabel('Collect events for').fill('3');
  await editor.getByLabel('Window unit').selectOption('seconds');
  await page.getByLabel('Step type').selectOption('email');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(editor.getByRole('heading', { name: 'Step 2: Email' })).toBeVisible();
  await editor.getByLabel('Subject').fill('{{step.total_count}} booking updates');
  await editor.getByLabel('Body (HTML)').fill('<p>Booking {{code}} and the others changed.</p>');
  await page.getByLabel('Step type').selectOption('sms');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(editor.getByRole('heading', { name: 'Step 3: SMS' })).toBeVisible();
  await editor.getByLabel('Message').fill('Urgent: booking {{code}} changed');
  await editor.getByRole('button', { name: 'Add condition' }).click();
  await editor.getByLabel('Source of condition 1').selectOption('payload');
  await editor.getByLabel('Field of condition 1').fill('priority');
  await editor.getByLabel('Operator of condition 1').selectOption('EQUAL');
  await editor.getByLabel('Value of condition 1').fill('urgent');
  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Booking updates' })).toBeVisible();
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The workflow is active.' }),
  ).toBeVisible();

  // 2. Promoted from the Changes section.
  await page.getByRole('link', { name: /^Changes/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Changes' })).toBeVisible();
  await page.getByRole('button', { name: /^Promote all/ }).click();
  await page
    .getByRole('dialog', { name: /to Production\?$/ })
    .getByRole('button', { name: /^Promote/ })
    .click();
  await expect(page.getByRole('status')).toContainText('promoted to Production.');

  // 3. Production: its own integrations. Custom SMTP for e-mail...
  await switchEnvironment(page, 'Production');
  await connect(page, 'email', 'nodemailer', async () => {
    await page.getByLabel('Host', { exact: true }).fill(smtp.host);
    await page.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await page.getByLabel('From', { exact: true }).fill('bookings@journey.example');
    await page.getByLabel('Sender name', { exact: true }).fill('Journey Rentals');
    await page.getByLabel('Name', { exact: true }).fill('Production relay');
  });
  await expect(page.getByRole('heading', { level: 2, name: 'Production relay' })).toBeVisible();

  // ...and Twilio for text messages, through a Messaging Service whose status callback is the
  // webhook URL the console shows (as a developer pastes it into Twilio's settings).
  const created = await request.post(`${twilioUrl()}/v1/Services`, {
    headers: { authorization: twilioAuth },
    form: { FriendlyName: 'Journey Rentals' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const service = ((await created.json()) as { sid: string }).sid;
  await connect(page, 'sms', 'twilio', async () => {
    await page.getByLabel('Account SID', { exact: true }).fill(TWILIO.accountSid);
    await page.getByLabel('Auth token', { exact: true }).fill(TWILIO.token);
    await page.getByLabel('From', { exact: true }).fill(service);
    await page.getByLabel('Name', { exact: true }).fill('Production texts');
  });
  await expect(page.getByRole('heading', { level: 2, name: 'Production texts' })).toBeVisible();
  await page.getByRole('button', { name: 'Check the credentials' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The credentials work' })).toContainText(
    'The account SID and auth token work',
  );
  const webhookUrl = (await page.locator('.webhook-url code').textContent())!.trim();
  expect(webhookUrl).toMatch(
    /\/v1\/webhooks\/organizations\/[0-9a-f]{24}\/environments\/[0-9a-f]{24}\/sms\/twilio$/,
  );
  await expect(page.getByText(/^Signed:/)).toBeVisible();
  const pasted = await request.post(`${twilioUrl()}/v1/Services/${service}`, {
    headers: { authorization: twilioAuth },
    form: { StatusCallback: webhookUrl },
  });
  expect(pasted.status(), await pasted.text()).toBe(200);

  // 4. The application triggers in Production with Production's key, as Get started shows it:
  // two bookings of one person within the digest's window (one urgent), and one of another.
  await page.getByRole('link', { name: 'Get started' }).click();
  const key = (await page.getByTestId('api-key').textContent())!.trim();
  const trigger = async (subscriberId: string, code: string, priority: string) => {
    const answer = await request.post('/v1/events/trigger', {
      headers: { authorization: `ApiKey ${key}` },
      data: {
        name: 'booking-updates',
        to: {
          subscriberId,
          email: `${subscriberId}@people.example`,
          phone: subscriberId === 'lia' ? '+5511999990001' : '+5511999990002',
        },
        payload: { code, priority },
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { data: { transactionId: string } }).data.transactionId;
  };
  const urgent = await trigger('lia', 'R-1', 'urgent');
  await trigger('lia', 'R-2', 'normal');
  const calm = await trigger('rui', 'R-3', 'normal');

  // The e-mails leave through Production's relay: one digest for Lia, one for Rui.
  await expect.poll(() => smtp.messages.length, { timeout: 30_000 }).toBe(2);
  const lia = smtp.messages.find((m) => m.to.includes('lia@people.example'))!;
  expect(lia.from).toBe('bookings@journey.example');
  expect(lia.text()).toContain('Subject: 2 booking updates');

  // 5. Activity: Lia's urgent booking, to the e-mail sent and the text message delivered.
  await page.getByRole('link', { name: 'Activity feed' }).click();
  await page.getByLabel('Transaction ID').fill(urgent);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const items = page
    .getByRole('list', { name: 'Notifications, newest first' })
    .getByRole('listitem');
  await expect(items).toHaveCount(1);
  await items.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Booking updates' })).toBeVisible();
  const steps = page.getByTestId('activity-step');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(1).locator('.step-statuses')).toContainText('Sent');
  await expect(steps.nth(2).locator('.step-statuses')).toContainText('Delivered', {
    timeout: 30_000,
  });
  // The delivery is Twilio's report, through the webhook URL the developer pasted.
  const texts = steps.nth(2).getByRole('list', { name: 'Execution of step 3' });
  const report = texts
    .getByRole('listitem')
    .filter({ hasText: "Delivered to the recipient, as twilio's delivery webhook reports" });
  await expect(report).toContainText('Provider webhook');
  await expect(report).toContainText('Success');
  await expect(steps.nth(1).getByRole('list', { name: 'Execution of step 2' })).toContainText(
    'Production relay',
  );
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'journey-activity-delivered');

  // Rui's booking was not urgent: the filter skipped his text message.
  await page.goto(`/console/activity?transactionId=${calm}`);
  await expect(items).toHaveCount(1);
  await items.first().getByRole('link').click();
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(1).locator('.step-statuses')).toContainText('Sent');
  await expect(steps.nth(2).locator('.step-statuses')).toContainText(/Filtered|Skipped/);
  await expectFitsAndPhotograph(page, 'journey-activity-filtered');

  // 6. Analytics, in Production: the sends and the delivery by webhook.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  const providers = page.getByTestId('providers-table');
  const email = providers.getByRole('row', { name: /^Email nodemailer / });
  const sms = providers.getByRole('row', { name: /^SMS twilio / });
  // After the provider's row header: sent, delivered, failed, bounced.
  await expect(email.getByRole('cell').nth(1)).toHaveText('2');
  await expect(sms.getByRole('cell').nth(1)).toHaveText('1');
  await expect(sms.getByRole('cell').nth(2)).toHaveText('1');
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'journey-analytics');
});
