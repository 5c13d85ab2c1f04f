import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FOLGA_DO_ENCERRAMENTO_MS, lerConfiguracao } from '@locadora/server/configuracao';

// The deployment recipes agree with the repository and with each other (docs/operations/
// deploy.md). CI also runs the tools themselves on them: dockerfile-utils, caddy validate,
// systemd-analyze verify (.ci/run).
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const server = 'node apps/server/dist/main.js';

function workspaces(): string[] {
  const globs = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
  return globs.flatMap((glob) =>
    readdirSync(join(root, glob.replace(/\/\*$/, '')), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${glob.replace(/\/\*$/, '')}/${entry.name}`)
      .filter((dir) => readdirSync(join(root, dir)).includes('package.json')),
  );
}

/** The Procfile's process types in order, with their commands. */
function procfile(): [string, string][] {
  return read('Procfile')
    .split('\n')
    .filter((line) => /^[a-z]+:/.test(line))
    .map((line) => {
      const [name, ...command] = line.split(':');
      return [name!, command.join(':').trim()];
    });
}

describe('the deployment recipes', () => {
  it('the image installs with every workspace manifest, before copying the sources', () => {
    const dockerfile = read('Dockerfile');
    const install = dockerfile.indexOf('RUN npm ci');
    const sources = dockerfile.indexOf('COPY . .');
    expect(install).toBeGreaterThan(0);
    expect(sources).toBeGreaterThan(install);
    for (const dir of workspaces())
      expect(dockerfile.slice(0, install)).toContain(`COPY ${dir}/package.json ${dir}/\n`);
  });

  it('the image, the Procfile and the units run the built server with node', () => {
    expect(read('Dockerfile')).toContain(`CMD ["node", "apps/server/dist/main.js"]`);
    for (const [, command] of procfile()) expect(command).toMatch(new RegExp(`${server}$`));
    for (const role of ['api', 'ws', 'worker'])
      expect(read(`docs/operations/systemd/locadora-${role}@.service`)).toContain(
        `ExecStart=/usr/bin/${server}`,
      );
  });

  it('the Procfile and the units give each process its role, listening on 127.0.0.1', () => {
    expect(procfile().map(([name]) => name)).toEqual(['api', 'ws', 'worker']);
    for (const [name, command] of procfile())
      expect(command).toBe(`ROLE=${name} HOST=127.0.0.1 ${server}`);
    for (const role of ['api', 'ws', 'worker'])
      expect(read(`docs/operations/systemd/locadora-${role}@.service`)).toContain(
        `Environment=ROLE=${role} PORT=%i HOST=127.0.0.1\n`,
      );
  });

  it("the proxy sends /socket.io to the ws processes and the rest to the api's", () => {
    // Foreman, honcho and overmind number ports from 5000, 100 per process type in the
    // Procfile's order; the systemd units are enabled on the same ports (deploy.md).
    const ports = (name: string) => {
      const base = 5000 + 100 * procfile().findIndex(([type]) => type === name);
      return `127.0.0.1:${base} 127.0.0.1:${base + 1}`;
    };
    const caddyfile = read('docs/operations/Caddyfile');
    const upstreams = [...caddyfile.matchAll(/(handle[^{]*)\{\s*reverse_proxy ([^{]+) \{/g)].map(
      ([, handle, to]) => [handle!.trim(), to!.trim()],
    );
    expect(upstreams).toEqual([
      ['handle /socket.io/*', ports('ws')],
      ['handle', ports('api')],
    ]);
    const guide = read('docs/operations/deploy.md');
    for (const role of ['api', 'ws', 'worker']) {
      const [first, second] = ports(role).replaceAll('127.0.0.1:', '').split(' ');
      expect(guide).toContain(`locadora-${role}@${first} locadora-${role}@${second}`);
    }
  });

  it('the units and the container recipe give a stop more than the grace and its margin', () => {
    // Past SHUTDOWN_GRACE_MS + the margin the process ends by itself; a supervisor that kills
    // sooner cuts its hand-back of jobs short (deploy.md, "Stopping").
    const stop = lerConfiguracao({}).SHUTDOWN_GRACE_MS + FOLGA_DO_ENCERRAMENTO_MS;
    for (const role of ['api', 'ws', 'worker']) {
      const unit = read(`docs/operations/systemd/locadora-${role}@.service`);
      const seconds = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
      expect(seconds * 1000, role).toBeGreaterThan(stop);
    }
    const guide = read('docs/operations/deploy.md');
    const containers = [...guide.matchAll(/docker run -d([^\n]*)/g)].map(([, options]) => options!);
    expect(containers.length).toBeGreaterThan(0);
    for (const options of containers) {
      const seconds = Number(/--stop-timeout (\d+)/.exec(options)?.[1]);
      expect(seconds * 1000, options).toBeGreaterThan(stop);
    }
  });

  it('the image context leaves out installs, builds, data and secrets', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', 'data', '.env', '.git'])
      expect(ignored).toContain(entry);
  });
});
