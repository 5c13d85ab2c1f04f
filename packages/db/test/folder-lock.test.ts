import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderInUseError, backUpDatabase, openDatabase } from '../src/index.js';

const raiz = fileURLToPath(new URL('../../..', import.meta.url));
const folders: string[] = [];
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function freshFolder(): string {
  const parent = mkdtempSync(join(tmpdir(), 'folder-lock-'));
  folders.push(parent);
  return join(parent, 'pglite');
}

/** Another process with the embedded database open on `dataDir`, answering once it is. */
async function holderProcess(dataDir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { openDatabase } from '@locadora/db';
       await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
       console.log('open');
       setInterval(() => {}, 1000);`,
    ],
    { cwd: raiz, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('open') && ok());
    child.once('exit', (code) => fail(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

describe("the embedded database's folder, one process at a time", () => {
  it('is refused to a second process, naming the holder, and taken at once after a kill -9', async () => {
    const dataDir = freshFolder();
    const holder = await holderProcess(dataDir);
    const refused = await openDatabase({ dataDir }).then(
      (handle) => (void handle.close(), undefined),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FolderInUseError);
    expect((refused as Error).message).toContain(`(pid ${holder.pid})`);
    // A backup is refused the same way, before it opens anything.
    await expect(backUpDatabase({ dataDir }, join(dataDir, '..', 'copy.tar.gz'))).rejects.toThrow(
      `open in another process (pid ${holder.pid})`,
    );

    // Killed: the kernel dropped its listener; the next open takes the folder without waiting.
    holder.kill('SIGKILL');
    await new Promise((ok) => holder.once('exit', ok));
    const started = Date.now();
    const reopened = await openDatabase({ dataDir });
    try {
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await reopened.ping()).toBe(true);
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('is refused to a second open in the same process, and free again once closed', async () => {
    const dataDir = freshFolder();
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/already open in this process/);
    await first.close();
    const second = await openDatabase({ dataDir });
    await second.close();
  }, 120_000);
});
