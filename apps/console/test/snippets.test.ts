import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  curlTrigger,
  nodeTrigger,
  novuNotificationCenter,
  sinoReactInbox,
} from '../src/features/get-started/lib/snippets.js';

const values = {
  origin: 'https://sino.example.com',
  applicationIdentifier: 'AbC_12-x',
  apiKey: 'f00d'.repeat(16),
};

describe('Get started snippets', () => {
  it('fill in the environment: the key where the server needs it, the identifier in the inbox', () => {
    expect(nodeTrigger(values)).toContain(`new Novu("${values.apiKey}", {`);
    expect(nodeTrigger(values)).toContain('backendUrl: "https://sino.example.com"');
    expect(curlTrigger(values)).toContain(`'Authorization: ApiKey ${values.apiKey}'`);
    for (const inbox of [sinoReactInbox(values), novuNotificationCenter(values)]) {
      expect(inbox).toContain('applicationIdentifier="AbC_12-x"');
      expect(inbox).toContain('socketUrl="https://sino.example.com"');
      // The inbox runs in the browser: never the secret key.
      expect(inbox).not.toContain(values.apiKey);
    }
  });

  it('name the key from the environment when the person may not see it (members)', () => {
    const member = { ...values, apiKey: null };
    expect(nodeTrigger(member)).toContain('new Novu(process.env.SINO_API_KEY, {');
    expect(curlTrigger(member)).toContain('"Authorization: ApiKey $SINO_API_KEY"');
  });

  it('give curl arguments a POSIX shell reads back as they were written', () => {
    // The shell itself parses the command: echo each argument on its own line.
    const command = curlTrigger({ ...values, origin: "https://it's.example.com" }).replace(
      /^curl /,
      "printf '%s\\n' ",
    );
    const args = execFileSync('sh', ['-c', command], {
      encoding: 'utf8',
      env: { SINO_API_KEY: 'unused' },
    }).split('\n');
    expect(args).toContain("https://it's.example.com/v1/events/trigger");
    expect(args).toContain(`Authorization: ApiKey ${values.apiKey}`);
    const body = JSON.parse(args[args.indexOf('-d') + 1]!) as { name: string; to: unknown };
    expect(body).toMatchObject({ name: 'welcome', to: { subscriberId: 'subscriber-1' } });
  });
});
