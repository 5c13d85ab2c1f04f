import { expect, test } from '@playwright/test';
import { watchCsp } from './apoio.js';

// The frame every preview of others' HTML goes through (components/SandboxedHtml, decision
// 063), in the browser against the real server: the console posts the HTML into a sandboxed
// frame, and the server answers it under the frame's own policy. An e-mail's inline styles
// apply; its scripts, handlers and requests do nothing, and the console's page sees no
// violation of its own policy.

const EMAIL = `<!doctype html><html><head><style>p.lead { color: rgb(200, 0, 0); }</style></head>
<body><p class="lead" style="font-weight: 700">Your booking is confirmed</p>
<img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="parent.document.title = 'handler ran'">
<script>parent.document.title = 'script ran'; fetch('/v1/environments/me?from-preview');</script>
<a href="/console/settings" target="_top">A link</a></body></html>`;

test('shows an e-mail with its inline styles and runs none of its scripts', async ({ page }) => {
  const violations = await watchCsp(page);
  const fromPreview: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('from-preview')) fromPreview.push(request.url());
  });
  await page.goto('/console/sign-in');
  const title = await page.title();

  // What SandboxedHtml renders: a hidden form posting into a frame sandboxed with no allowance.
  // A string: this file is checked without the DOM's types.
  await page.evaluate(`(() => {
    const frame = document.createElement('iframe');
    frame.name = 'preview';
    frame.setAttribute('sandbox', '');
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/console/frame';
    form.target = 'preview';
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = 'html';
    field.value = ${JSON.stringify(EMAIL)};
    form.append(field);
    document.body.append(frame, form);
    form.submit();
  })()`);

  await expect
    .poll(() =>
      page
        .frames()
        .find((f) => f.url().endsWith('/console/frame'))
        ?.url(),
    )
    .toBeTruthy();
  const frame = page.frames().find((f) => f.url().endsWith('/console/frame'))!;
  const lead = frame.locator('p.lead');
  await expect(lead).toHaveText('Your booking is confirmed');
  await expect(lead).toHaveCSS('color', 'rgb(200, 0, 0)');
  await expect(lead).toHaveCSS('font-weight', '700');
  // An opaque origin: the frame's document cannot reach the console's.
  expect(await frame.evaluate('window.origin')).toBe('null');

  // Given time to run, had it been allowed to.
  await page.waitForTimeout(500);
  expect(await page.title()).toBe(title);
  expect(fromPreview).toEqual([]);
  expect(await violations()).toEqual([]);
});

test("another site's page cannot make the server show its HTML", async ({ request }) => {
  const answer = await request.post('/console/frame', {
    headers: { origin: 'https://evil.example' },
    form: { html: '<h1>Sign in again</h1>' },
  });
  expect(answer.status()).toBe(403);
  expect(await answer.text()).not.toContain('Sign in again');
});
