import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes, expectFitsAndPhotograph, watchCsp } from './apoio.js';
import { addMember, newOrganization, signInAs } from './organizations.js';

// The console's Workflows section: a workflow built through the editor (steps, a digest, a
// filter) is saved as built; bad input is shown and nothing saved; the server's preview follows
// the sample payload; a member's template with a script previews without running it; a test
// trigger reaches its subscriber; Production is read-only. Each test makes an organization of
// its own (sign-up is open on the e2e server), so its workflows are nobody else's.

// Two axe runs and two widths of screenshots per page, on a machine shared with other runs.
test.describe.configure({ timeout: 240_000 });

interface WorkflowRead {
  _id: string;
  name: string;
  description: string | null;
  active: boolean;
  critical: boolean;
  tags: string[];
  preferenceSettings: Record<string, boolean>;
  triggers: { identifier: string }[];
  steps: {
    uuid: string;
    name: string | null;
    filters: { value: string; children: Record<string, unknown>[] }[];
    metadata?: Record<string, unknown>;
    template: {
      type: string;
      content: string;
      subject?: string;
      cta?: { data?: { url?: string }; action?: { buttons?: unknown[] } } | null;
      actor?: { type: string; data: string | null } | null;
    };
  }[];
}

async function workflows(request: APIRequestContext, token: string): Promise<WorkflowRead[]> {
  const answer = await request.get('/v1/workflows?limit=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { data: WorkflowRead[] }).data;
}

async function createWorkflow(
  request: APIRequestContext,
  token: string,
  data: Record<string, unknown>,
): Promise<WorkflowRead> {
  const answer = await request.post('/v1/workflows', {
    headers: { authorization: `Bearer ${token}` },
    data,
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { data: WorkflowRead }).data;
}

const openWorkflows = async (page: Page) => {
  await page.getByRole('link', { name: 'Workflows' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Workflows' })).toBeVisible();
};

test('workflows: a workflow with a digest and a filter is built in the editor and saved as built', async ({
  page,
  request,
}) => {
  // The longest flow of the section: three steps, two saves, a reload.
  test.setTimeout(480_000);
  const org = await newOrganization(page, request);
  await page.goto('/console/get-started');
  await openWorkflows(page);
  await expect(page.getByText('This environment has no workflow yet.')).toBeVisible();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'workflows-list-empty');

  // Keyboard: Tab reaches the action, Enter opens the editor, whose heading takes the focus.
  const create = page.getByRole('link', { name: 'Create a workflow' });
  await create.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'New workflow' })).toBeFocused();

  await page.getByLabel('Name', { exact: true }).fill('Order shipped');
  await expect(page.getByLabel('Identifier')).toHaveValue('order-shipped');
  await page.getByLabel('Tags').fill('orders, shipping');
  await page.getByLabel('Description').fill('Tells the buyer the parcel left.');
  await page.getByRole('checkbox', { name: 'SMS' }).uncheck();

  // Steps: in-app, a backoff digest, then an e-mail with a filter on the payload.
  await page.getByLabel('Step type').selectOption('in_app');
  await page.getByRole('button', { name: 'Add step' }).click();
  const editor = page.getByTestId('step-editor');
  await editor.getByLabel('Message').fill('Your order {{orderId}} shipped');
  await editor.getByLabel('Open on click (optional)').fill('javascript:alert(1)');
  await editor.getByLabel('Primary button (optional)').fill('Track it');
  // An image avatar needs an address the inbox may load; a system icon is chosen instead.
  await editor.getByLabel('Avatar').selectOption({ label: 'An image' });
  await editor.getByLabel('Image address').fill('logo.png');

  // The keyboard adds the digest: the type chosen with the arrows, Add step with Enter.
  await page.getByLabel('Step type').focus();
  await page.getByLabel('Step type').selectOption('digest');
  await page.getByRole('button', { name: 'Add step' }).focus();
  await page.keyboard.press('Enter');
  await expect(editor.getByRole('heading', { name: 'Step 2: Digest' })).toBeVisible();
  await editor.getByLabel('Digest type').selectOption('backoff');
  await editor.getByLabel('Collect events for').fill('10');
  await editor.getByLabel('Window unit').selectOption('minutes');
  await editor.getByLabel('Backoff window').fill('2');
  await editor.getByLabel('Backoff unit').selectOption('minutes');
  await editor.getByLabel('Digest key (optional)').fill('orderId');

  await page.getByLabel('Step type').selectOption('email');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(editor.getByRole('heading', { name: 'Step 3: Email' })).toBeVisible();
  await editor.getByLabel('Step name').fill('Receipt');
  await editor.getByLabel('Subject').fill('Order {{orderId}} shipped');
  await editor.getByRole('button', { name: 'Add condition' }).click();
  await editor.getByLabel('Source of condition 1').selectOption('payload');
  await editor.getByLabel('Field of condition 1').fill('total');
  await editor.getByLabel('Operator of condition 1').selectOption('LARGER');
  await editor.getByLabel('Value of condition 1').fill('100');
  await editor.getByRole('button', { name: 'Add condition' }).click();
  await editor.getByLabel('Source of condition 2').selectOption('previousStep');
  const firstStep = editor.getByLabel('Earlier step of condition 2');
  await firstStep.selectOption({ label: '1. In-app' });
  await editor.getByLabel('Its message was, condition 2').selectOption('unread');
  await editor.getByLabel('Run the step when').selectOption('OR');
  await expect(editor.getByTestId('template-preview').locator('iframe')).toBeVisible();
  // A link the inbox must not open is caught beside its field, and nothing is saved.
  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await page.getByRole('button', { name: /1\. In-app.*needs attention/ }).click();
  await expect(
    editor.getByText('Start the link with /, https:// or a {{variable}}, without spaces'),
  ).toBeVisible();
  expect(await workflows(request, org.adminToken)).toEqual([]);
  await expect(editor.getByText('Enter the image’s address, starting with https://')).toBeVisible();
  await editor.getByLabel('Open on click (optional)').fill('/orders/{{orderId}}');
  await editor.getByLabel('Avatar').selectOption({ label: 'A system icon' });
  await editor.getByLabel('Icon', { exact: true }).selectOption({ label: 'Success' });
  await expect(editor.locator('.avatar-sample svg')).toBeVisible();
  await expect(page.getByRole('button', { name: /1\. In-app.*needs attention/ })).toHaveCount(0);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'workflows-editor-in-app');
  await page.getByRole('button', { name: /3\. Email/ }).click();
  // (axe runs on the editor once below, after the reload: the same controls, saved.)
  await expectFitsAndPhotograph(page, 'workflows-editor-new');

  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Order shipped' })).toBeVisible();
  await expect(page).toHaveURL(/\/console\/workflows\/[0-9a-f]{24}$/);

  // What the server holds is what was built.
  const [saved] = await workflows(request, org.adminToken);
  expect(saved).toMatchObject({
    name: 'Order shipped',
    description: 'Tells the buyer the parcel left.',
    tags: ['orders', 'shipping'],
    critical: false,
    active: false,
    triggers: [{ identifier: 'order-shipped' }],
    preferenceSettings: { in_app: true, email: true, sms: false, chat: true, push: true },
  });
  expect(saved!.steps.map((s) => s.template.type)).toEqual(['in_app', 'digest', 'email']);
  expect(saved!.steps[0]!.template.content).toBe('Your order {{orderId}} shipped');
  expect(saved!.steps[0]!.template.cta).toMatchObject({
    type: 'redirect',
    data: { url: '/orders/{{orderId}}' },
    action: { buttons: [{ type: 'primary', content: 'Track it' }] },
  });
  expect(saved!.steps[0]!.template.actor).toEqual({ type: 'system_icon', data: 'success' });
  expect(saved!.steps[1]!.metadata).toMatchObject({
    type: 'backoff',
    amount: 10,
    unit: 'minutes',
    backoff: true,
    backoffAmount: 2,
    backoffUnit: 'minutes',
    digestKey: 'orderId',
  });
  expect(saved!.steps[2]!.name).toBe('Receipt');
  expect(saved!.steps[2]!.template.subject).toBe('Order {{orderId}} shipped');
  expect(saved!.steps[2]!.filters).toEqual([
    expect.objectContaining({
      value: 'OR',
      children: [
        expect.objectContaining({ on: 'payload', field: 'total', operator: 'LARGER', value: 100 }),
        expect.objectContaining({
          on: 'previousStep',
          step: saved!.steps[0]!.uuid,
          stepType: 'unread',
        }),
      ],
    }),
  ]);

  // Editing: critical on, activated; the reopened editor shows what was saved.
  await page.getByRole('checkbox', { name: /Critical/ }).check();
  await page.getByRole('button', { name: /^1\. In-app/ }).click();
  await editor.getByLabel('Primary button (optional)').fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The workflow was saved.' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Activate' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The workflow is active.' }),
  ).toBeVisible();
  const [edited] = await workflows(request, org.adminToken);
  expect(edited).toMatchObject({ critical: true, active: true });
  expect(edited!.steps[0]!.template.cta).toMatchObject({
    data: { url: '/orders/{{orderId}}' },
    action: { buttons: [] },
  });
  expect(edited!.steps.map((s) => s.uuid)).toEqual(saved!.steps.map((s) => s.uuid));

  await page.reload();
  await page.getByRole('button', { name: '3. Email: Receipt' }).click();
  await expect(page.getByLabel('Field of condition 1')).toHaveValue('total');
  await expect(page.getByRole('checkbox', { name: /Critical/ })).toBeChecked();
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'workflows-editor');
});

test('workflows: the list shows each workflow’s group, tags, steps and status, and searches', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  await createWorkflow(request, org.adminToken, {
    name: 'Order shipped',
    identifier: 'order-shipped',
    tags: ['orders', 'shipping'],
    active: true,
    steps: [
      { template: { type: 'in_app', content: 'Shipped' } },
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      { template: { type: 'email', subject: 'Shipped', content: 'Shipped' } },
    ],
  });
  await createWorkflow(request, org.adminToken, { name: 'Password reset', steps: [] });
  await page.goto('/console/get-started');
  await openWorkflows(page);
  const rows = page.getByTestId('workflow-row');
  await expect(rows).toHaveCount(2);
  const row = rows.filter({ hasText: 'Order shipped' });
  await expect(row).toContainText('order-shipped');
  await expect(row).toContainText('General');
  await expect(row).toContainText('orders');
  await expect(row).toContainText('In-app → Digest → Email');
  await expect(row).toContainText('Active');
  await expect(rows.filter({ hasText: 'Password reset' })).toContainText('Inactive');
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'workflows-list');

  await page.getByLabel('Search workflows').fill('nothing like it');
  await expect(page.getByText('No workflow matches “nothing like it”.')).toBeVisible();
  await expect(page).toHaveURL(/q=nothing/);
  await page.getByLabel('Search workflows').fill('order');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Order shipped');

  // Keyboard: the workflow's link opens its editor.
  await rows.getByRole('link', { name: 'Order shipped' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Order shipped' })).toBeFocused();
});

test('workflows: bad input is shown beside its field and nothing is saved; a refusal is shown', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  await createWorkflow(request, org.adminToken, { name: 'Taken', identifier: 'taken', steps: [] });
  await page.goto('/console/workflows/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New workflow' })).toBeVisible();

  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/workflows') posted += 1;
  });
  await page.getByLabel('Identifier').fill('not valid!');
  await page.getByLabel('Step type').selectOption('email');
  await page.getByRole('button', { name: 'Add step' }).click();
  const editor = page.getByTestId('step-editor');
  await editor.getByLabel('Subject').fill('');
  await editor.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Step type').selectOption('digest');
  await page.getByRole('button', { name: 'Add step' }).click();
  await editor.getByLabel('Collect events for').fill('0');
  await page.getByRole('button', { name: 'Create the workflow' }).click();

  await expect(page.getByText('Some fields need attention: nothing was saved.')).toBeVisible();
  await expect(page.getByText('Name the workflow')).toBeVisible();
  await expect(page.getByText('Use letters, digits')).toBeVisible();
  await expect(editor.getByText('Enter a whole number above 0')).toBeVisible();
  await expect(page.getByRole('button', { name: /1\. Email.*needs attention/ })).toBeVisible();
  await page.getByRole('button', { name: /1\. Email/ }).click();
  await expect(editor.getByText('Write the subject')).toBeVisible();
  await expect(editor.getByText('Enter the field to compare')).toBeVisible();
  await expectFitsAndPhotograph(page, 'workflows-editor-errors');

  // Fixed but for an identifier another workflow has: the server's refusal, nothing lost.
  await page.getByLabel('Name', { exact: true }).fill('Second');
  await page.getByLabel('Identifier').fill('taken');
  await editor.getByLabel('Subject').fill('Hello');
  await editor.getByLabel('Field of condition 1').fill('plan');
  await editor.getByLabel('Value of condition 1').fill('pro');
  await page.getByRole('button', { name: /2\. Digest/ }).click();
  await editor.getByLabel('Collect events for').fill('5');
  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'taken already exists' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Second');
  expect(posted).toBe(1);
  expect((await workflows(request, org.adminToken)).map((w) => w.name)).toEqual(['Taken']);
});

test('workflows: a timed digest on chosen days and a delay until a payload date; bad input is said and nothing saved', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  await page.goto('/console/workflows/new');
  await page.getByLabel('Name', { exact: true }).fill('Weekly summary');
  await page.getByLabel('Step type').selectOption('digest');
  await page.getByRole('button', { name: 'Add step' }).click();
  const editor = page.getByTestId('step-editor');
  await editor.getByLabel('Digest type').selectOption('timed');
  // A timed digest has a schedule, not a window.
  await expect(editor.getByLabel('Collect events for')).toHaveCount(0);
  await editor.getByLabel('Send at (HH:mm, UTC)').fill('18:30');
  const days = editor.getByRole('group', { name: /On these days of the week/ });
  // By keyboard: Tab to Friday's box, Space to check it.
  await days.getByRole('checkbox', { name: 'Thursday' }).focus();
  await page.keyboard.press('Tab');
  await expect(days.getByRole('checkbox', { name: 'Friday' })).toBeFocused();
  await page.keyboard.press('Space');
  await days.getByRole('checkbox', { name: 'Monday' }).check();
  await editor.getByLabel('Days of the month (optional)').fill('1, 40');
  // Then a delay until the date the trigger carries, its path forgotten at first.
  await page.getByLabel('Step type').selectOption('delay');
  await page.getByRole('button', { name: 'Add step' }).click();
  await editor.getByLabel('Delay type').selectOption('scheduled');
  await expect(editor.getByLabel('Wait for')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await expect(editor.getByText('Enter the payload path of the date')).toBeVisible();
  await editor.getByLabel('Payload path of the date').fill('sendAt');
  await page.getByRole('button', { name: /^1\. Digest/ }).click();
  await expect(
    editor.getByText('Enter days of the month from 1 to 31, separated by commas'),
  ).toBeVisible();
  await expect(editor.getByLabel('Days of the month (optional)')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  expect(await workflows(request, org.adminToken)).toEqual([]);
  await expectAccessibleInBothThemes(page);
  await expectFitsAndPhotograph(page, 'workflows-editor-timed-digest');

  await editor.getByLabel('Days of the month (optional)').fill('15, 1');
  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Weekly summary' })).toBeVisible();
  const [saved] = await workflows(request, org.adminToken);
  expect(saved!.steps[1]!.metadata).toEqual({ type: 'scheduled', delayPath: 'sendAt' });
  expect(saved!.steps[0]!.metadata).toMatchObject({
    type: 'timed',
    timed: { atTime: '18:30', weekDays: ['monday', 'friday'], monthDays: [1, 15] },
  });
  await page.reload();
  await expect(editor.getByLabel('Send at (HH:mm, UTC)')).toHaveValue('18:30');
  await expect(days.getByRole('checkbox', { name: 'Friday' })).toBeChecked();
  await expect(days.getByRole('checkbox', { name: 'Tuesday' })).not.toBeChecked();
  await expect(editor.getByLabel('Days of the month (optional)')).toHaveValue('1, 15');
});

test('workflows: the preview is the server’s rendering of the sample payload, and follows it', async ({
  page,
  request,
}) => {
  await newOrganization(page, request);
  await page.goto('/console/workflows/new');
  await page.getByLabel('Step type').selectOption('sms');
  await page.getByRole('button', { name: 'Add step' }).click();
  const editor = page.getByTestId('step-editor');
  await editor
    .getByLabel('Message')
    .fill('Hi {{titlecase name}}, {{count}} {{pluralize count "parcel" "parcels"}}');
  const payload = page.getByLabel('Sample payload (JSON)');
  await payload.fill('{"name": "ada lovelace", "count": 1}');
  const text = editor.getByTestId('preview-text');
  await expect(text).toHaveText('Hi Ada Lovelace, 1 parcel');
  await expect(editor.getByTestId('preview-variables')).toContainText('name');
  await expect(editor.getByTestId('preview-variables')).toContainText('count');

  await payload.fill('{"name": "grace hopper", "count": 3}');
  await expect(text).toHaveText('Hi Grace Hopper, 3 parcels');

  // Not JSON: said beside the field, and the preview keeps the last good payload.
  await payload.fill('{"name": ');
  await expect(page.getByText(/This is not valid JSON/)).toBeVisible();
  await expect(text).toHaveText('Hi Grace Hopper, 3 parcels');

  // A template the engine cannot read: the server's message.
  await editor.getByLabel('Message').fill('Hi {{#if name}}');
  await expect(editor.getByTestId('preview-error')).toBeVisible();

  // The helpers' reference opens from the keyboard.
  const helpers = editor.locator('details.helpers summary');
  await helpers.focus();
  await page.keyboard.press('Enter');
  await expect(editor.getByText('{{pluralize count "item" "items"}}')).toBeVisible();
});

test('workflows: a member’s template with a script previews without running it', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const member = await addMember(request, org);
  await page.context().clearCookies();
  await signInAs(page, member.email);
  const cspViolations = await watchCsp(page);
  const leaks: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('leaked-by-preview')) leaks.push(r.url());
  });
  page.on('dialog', (dialog) => {
    leaks.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });

  // A member has the same controls as an admin here (the server lets every role edit workflows).
  await openWorkflows(page);
  await page.getByRole('link', { name: 'Create a workflow' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Hostile template');
  await page.getByLabel('Step type').selectOption('email');
  await page.getByRole('button', { name: 'Add step' }).click();
  const editor = page.getByTestId('step-editor');
  await editor
    .getByLabel('Body (HTML)')
    .fill(
      [
        '<p>Visible {{name}}</p>',
        "<script>fetch('/leaked-by-preview?fetch'); parent.document.title = 'pwned';",
        "top.location = '/leaked-by-preview?top'; alert('ran');</script>",
        '<img src="x" onerror="fetch(\'/leaked-by-preview?onerror\')">',
      ].join('\n'),
    );
  await page.getByLabel('Sample payload (JSON)').fill('{"name": "Ada"}');
  const frame = page.frameLocator('iframe[title="Preview of the e-mail step"]');
  await expect(frame.getByText('Visible Ada')).toBeVisible();
  await page.getByRole('button', { name: 'Create the workflow' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hostile template' })).toBeVisible();
  await expect(frame.getByText('Visible Ada')).toBeVisible();
  // Time for anything that could run to have run.
  await page.waitForTimeout(1000);

  expect(leaks).toEqual([]);
  expect(await page.title()).not.toBe('pwned');
  await expect(page).toHaveURL(/\/console\/workflows\/[0-9a-f]{24}$/);
  await expect(page.locator('iframe[title="Preview of the e-mail step"]')).toHaveAttribute(
    'sandbox',
    '',
  );
  // The frame's document has a policy of its own (decision 063): no inline-style refusal (the
  // console's `style-src 'self'` is not the frame's), and the only reports are the frame's own
  // policy refusing the template's image from this host (`img-src data: https:`).
  const reports = await cspViolations();
  expect(reports.filter((r) => !r.includes(`"img-src data: https:"`))).toEqual([]);
});

test('workflows: a test trigger reaches the chosen subscriber with the payload', async ({
  page,
  request,
}) => {
  const org = await newOrganization(page, request);
  const auth = { authorization: `Bearer ${org.adminToken}` };
  for (const [subscriberId, firstName] of [
    ['ana-1', 'Ana'],
    ['bea-2', 'Bea'],
  ]) {
    const made = await request.post('/v1/subscribers', {
      headers: auth,
      data: { subscriberId, firstName, email: `${subscriberId}@people.example` },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  const workflow = await createWorkflow(request, org.adminToken, {
    name: 'Test me',
    identifier: 'test-me',
    active: true,
    steps: [{ template: { type: 'in_app', content: 'Hello {{who}}' } }],
  });
  await page.goto(`/console/workflows/${workflow._id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Test me' })).toBeVisible();
  const test = page.getByRole('form', { name: 'Test trigger' });
  // Not JSON, or no subscriber: nothing is sent.
  let triggered = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/events/trigger') triggered += 1;
  });
  await test.getByRole('button', { name: 'Run a test' }).click();
  await expect(test.getByText('Enter a subscriber ID')).toBeVisible();
  await expect(test.getByLabel('Subscriber ID')).toHaveAttribute('aria-invalid', 'true');
  // The environment's subscribers are suggested; the ID is typed.
  await expect(test.locator('datalist option[value="bea-2"]')).toHaveCount(1);
  await test.getByLabel('Subscriber ID').fill('bea-2');
  await page.getByLabel('Sample payload (JSON)').fill('["not", "an", "object"]');
  await test.getByRole('button', { name: 'Run a test' }).click();
  await expect(test.getByRole('alert')).toContainText('Fix the sample payload first');
  expect(triggered).toBe(0);

  await page.getByLabel('Sample payload (JSON)').fill('{"who": "Bea"}');
  await test.getByRole('button', { name: 'Run a test' }).focus();
  await page.keyboard.press('Enter');
  const notice = test.getByRole('status').filter({ hasText: 'Triggered: transaction' });
  await expect(notice).toBeVisible();
  const transactionId = /transaction (\S+)\./.exec((await notice.textContent())!)![1]!;
  expect(triggered).toBe(1);

  // The activity holds it, for Bea, with the payload given.
  await expect
    .poll(async () => {
      const answer = await request.get(
        `/v1/notifications?transactionId=${encodeURIComponent(transactionId)}`,
        { headers: auth },
      );
      const { data } = (await answer.json()) as {
        data: { subscriber?: { subscriberId: string }; payload?: Record<string, unknown> }[];
      };
      return data.map((n) => ({ to: n.subscriber?.subscriberId, payload: n.payload }));
    })
    .toEqual([{ to: 'bea-2', payload: { who: 'Bea' } }]);
  await expectFitsAndPhotograph(page, 'workflows-editor-test-trigger');
});

test('workflows: Production is read-only (changes arrive by promotion)', async ({
  page,
  request,
}) => {
  await newOrganization(page, request);
  await page.goto('/console/workflows');
  await expect(page.getByRole('link', { name: 'Create a workflow' })).toBeVisible();
  await page.getByLabel('Environment').selectOption({ label: 'Production' });
  await expect(page.getByText(/This is Production/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create a workflow' })).toHaveCount(0);
  await expect(page.getByText('This environment has no workflow yet.')).toBeVisible();
});
