/**
 * A listening Sino (sino-core's test harness: in-memory PGlite, or TEST_DATABASE_URL) in a
 * process of its own, for the component tests: they run under jsdom, where the server's own
 * modules cannot load. Prints one JSON line once it listens ({url, applicationIdentifier,
 * apiKey}); then answers JSON-line requests on stdin, one JSON line each on stdout:
 * `{id, op: 'seed', subscriberId, count, options}` opens the subscriber and inserts messages.
 */
import { createInterface } from 'node:readline';
import { createSinoTestApp } from '../../sino-core/test/harness.js';
import {
  insertMessages,
  subscriberRow,
  type MessageOptions,
} from '../../sino-core/test/fixtures.js';

interface SeedRequest {
  id: number;
  op: 'seed';
  subscriberId: string;
  count: number;
  options?: MessageOptions;
}

const t = await createSinoTestApp();
await t.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = t.app.server.address() as { port: number };
process.stdout.write(
  `${JSON.stringify({
    url: `http://127.0.0.1:${port}`,
    applicationIdentifier: t.credentials.applicationIdentifier,
    apiKey: t.credentials.apiKey,
  })}\n`,
);

async function seed(request: SeedRequest) {
  await t.session(request.subscriberId);
  const row = await subscriberRow(t, request.subscriberId);
  const inserted = await insertMessages(t.db, row, request.count, request.options);
  return inserted.map((m) => ({ _id: m.id, content: m.content }));
}

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line) as SeedRequest;
  try {
    process.stdout.write(`${JSON.stringify({ id: request.id, result: await seed(request) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ id: request.id, error: String(error) })}\n`);
  }
}
// stdin closed: the test process is done with this server. A close that takes long says so,
// with what is still open, in the test's output.
const slowClose = setTimeout(() => {
  process.stderr.write(
    `sino-node: close still running after 20 s (${process.getActiveResourcesInfo().join(', ')})\n`,
  );
}, 20_000).unref();
await t.close();
clearTimeout(slowClose);
// The server's own main ends the process once closed (close-with-grace); here a handle some
// library left open (a timer, a connection) would keep this node, and the test waiting for its
// exit, alive until the hook's timeout. What was left is named, then the node ends.
setTimeout(() => {
  process.stderr.write(
    `sino-node: still running 2 s after its close (${process.getActiveResourcesInfo().join(', ')}); ending it\n`,
  );
  process.exit(0);
}, 2000).unref();
