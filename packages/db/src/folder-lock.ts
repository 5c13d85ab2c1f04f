import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { resolve } from 'node:path';

/** The embedded database's folder is open in another process, or already in this one. */
export class FolderInUseError extends Error {
  override name = 'FolderInUseError';
}

/** Folders this process holds: a second open of one would corrupt it just as well. */
const heldHere = new Set<string>();

// The longest Unix socket path Linux takes is 107 bytes; longer ones use the abstract namespace.
const MAX_SOCKET_PATH = 100;

/**
 * Holds the embedded database's folder for this process until the returned function runs.
 * PGlite does not stop a second process from opening a folder one already has open, and two
 * PostgreSQL instances writing one data folder corrupt it (`npm start` run twice, a backup
 * during a start). The hold is a Unix socket beside the folder (`<folder>.lock`) that this
 * process listens on: another process that finds it connects, learns the holder's pid and
 * refuses to open; a socket nobody answers on (its process was killed) is taken over at once.
 * Not a lock file with a pid: the kernel drops the listener with the process, so a kill -9 never
 * leaves a folder that cannot be opened, and a pid reused after a restart cannot look alive.
 * Node has no flock(2) without a native addon, and lock-file packages judge staleness by age,
 * which would hold a restart after a crash for their whole staleness period.
 */
export async function holdFolder(folder: string): Promise<() => Promise<void>> {
  const key = resolve(folder);
  if (heldHere.has(key))
    throw new FolderInUseError(`the embedded database ${key} is already open in this process`);
  const file = `${key}.lock`;
  const path =
    Buffer.byteLength(file) <= MAX_SOCKET_PATH
      ? file
      : `\0locadora-pglite-${createHash('sha256').update(key).digest('hex')}`;
  heldHere.add(key);
  try {
    const server = await listenOrTakeOver(path, key);
    server.unref();
    return () =>
      new Promise<void>((done) => {
        heldHere.delete(key);
        server.close(() => done());
      });
  } catch (error) {
    heldHere.delete(key);
    throw error;
  }
}

async function listenOrTakeOver(path: string, key: string): Promise<Server> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await listen(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt > 0) throw error;
    }
    const holder = await askHolder(path);
    if (holder !== undefined)
      throw new FolderInUseError(
        `the embedded database ${key} is open in another process (pid ${holder || 'unknown'}): stop it first, or give this one its own DATA_DIR`,
      );
    // Nobody listens: the process that held it is gone. Its socket file is taken over.
    if (!path.startsWith('\0')) unlinkSync(path);
  }
}

function listen(path: string): Promise<Server> {
  return new Promise((ok, fail) => {
    // Whoever connects is told this process's id, and the connection is closed.
    const server = createServer((socket) => socket.end(String(process.pid)));
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      ok(server);
    });
  });
}

/** The holder's pid ('' if it said nothing), or undefined when nobody answers. */
function askHolder(path: string): Promise<string | undefined> {
  return new Promise((ok) => {
    let said = '';
    const socket = connect(path);
    socket.setTimeout(2000);
    socket.on('data', (chunk) => (said += chunk.toString()));
    socket.on('end', () => ok(said.trim()));
    // A listener that does not answer in time is still a listener.
    socket.on('timeout', () => (socket.destroy(), ok('')));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      ok(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? undefined : ''),
    );
  });
}
