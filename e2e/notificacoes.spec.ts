import { expect, fotografar, novoCliente, test, verificarAcessibilidade } from './apoio.js';

test('notificações: "Enviar Notificação" manda uma para si mesmo; repetida logo, um aviso claro @cluster', async ({
  page,
}) => {
  const cliente = await novoCliente(page, 'Rita Sineira');
  await page.goto('/home2');
  // In the top menu for a customer.
  await page.getByRole('link', { name: 'Notificações' }).click();
  await expect(page.getByRole('heading', { name: 'Notificações', level: 1 })).toBeVisible();
  await verificarAcessibilidade(page);

  // Keyboard only: the button is reachable and works with Enter.
  const botao = page.getByRole('button', { name: 'Enviar Notificação' });
  const enviada = page.getByRole('status').filter({ hasText: 'Notificação enviada!' });
  await botao.focus();
  await page.keyboard.press('Enter');
  await expect(enviada).toBeVisible();

  // Again at once, well within the 5 s whichever API node answers: refused, said in
  // Portuguese. (Before anything else: on a busy machine, or with several processes, the
  // delivery checked below may itself take longer than the 5 s.)
  await botao.click();
  await expect(page.getByRole('alert')).toHaveText(
    'Aguarde 5 segundos entre uma notificação de teste e outra.',
  );
  await verificarAcessibilidade(page);
  await fotografar(page, 'notificacoes-aguarde');

  // It reached Sino once: the account's feed (read with its own session) has it.
  const sessao = await page.evaluate(async (token) => {
    const r = await fetch('/api/me/notificacoes', {
      headers: { authorization: `Bearer ${token}` },
    });
    return (await r.json()) as {
      applicationIdentifier: string;
      subscriberId: string;
      subscriberHash: string;
    };
  }, cliente.token);
  await expect
    .poll(async () =>
      page.evaluate(async (s) => {
        const init = await fetch('/v1/widgets/session/initialize', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            applicationIdentifier: s.applicationIdentifier,
            subscriberId: s.subscriberId,
            hmacHash: s.subscriberHash,
          }),
        });
        const { data } = (await init.json()) as { data: { token: string } };
        const feed = await fetch('/v1/widgets/notifications/feed', {
          headers: { authorization: `Bearer ${data.token}` },
        });
        return ((await feed.json()) as { data: { content: string }[] }).data.map((m) => m.content);
      }, sessao),
    )
    .toEqual(['Olá, Rita! Esta é uma notificação de teste: o seu sino está funcionando.']);

  // Once the 5 s are over, it sends again.
  await expect(async () => {
    await botao.click();
    await expect(enviada).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await verificarAcessibilidade(page);
  await fotografar(page, 'notificacoes-enviada');
});
