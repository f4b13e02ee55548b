/**
 * One store, one owner: a process that opens an embedded store holds its folder (db.json, its log
 * and files/) for as long as it runs. Two writers appending to one log would corrupt it, each
 * acknowledging writes the other then buries.
 *
 * The hold is a listening local socket, which the kernel closes with the process however it ends
 * (SIGKILL included), so a lock is never left stale and nothing needs cleaning before the next
 * start: a socket file `.dipswitch.lock` in the folder (found stale, it is replaced: a connection to
 * it is refused once its process is gone), which processes that share the folder's file system on
 * one machine all see, containers on one volume included; on Linux also an abstract socket named
 * after the folder's real path (held even where the folder cannot hold a socket file); on Windows a
 * named pipe. A second opener connects to the holder, which answers what it is (pid, command, since
 * when), and is refused with that. Two machines sharing a network disk do not see each other's hold.
 */
import { createHash } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { wallClock } from '../../deps.js';

/** What the holder of a store tells a process that would open it too. */
export interface Holder {
  pid: number;
  /** The command the holder runs, as started (`dipswitch --data db.json --port 4010`). */
  command: string;
  since: string;
  /** Where it serves, once it does. */
  url?: string;
}

/** The store's folder is held by another process: the message names it. */
export class StoreHeld extends Error {
  constructor(
    readonly folder: string,
    readonly holder: Holder | null,
  ) {
    const who = holder
      ? `process ${holder.pid} (${holder.url ? `serving ${holder.url}, ` : ''}\`${holder.command}\`, since ${holder.since})`
      : 'another process';
    super(
      `the store folder ${folder} is in use by ${who}: one store has one owner. Stop it first, or give this one another --data folder.`,
    );
  }
}

/** A store folder held by this process, until `release`. */
export interface Ownership {
  /** Says where this process serves, for a process refused later. */
  describe(url: string): void;
  release(): Promise<void>;
}

/** Where the folder's holds live on this platform: each must be taken. */
function addressesOf(folder: string): { path: string; file: boolean }[] {
  const name = `dipswitch-store-${createHash('sha256').update(folder).digest('hex').slice(0, 32)}`;
  if (process.platform === 'win32') return [{ path: `\\\\.\\pipe\\${name}`, file: false }];
  const file = { path: join(folder, '.dipswitch.lock'), file: true };
  return process.platform === 'linux' ? [{ path: `\0${name}`, file: false }, file] : [file];
}

/**
 * A folder that cannot hold a socket file (a path too long for one, a file system without them; a
 * path that is no folder, which opening the store then reports): its other holds stand.
 */
const NO_SOCKET_FILE = new Set([
  'ENAMETOOLONG',
  'EACCES',
  'EPERM',
  'ENOTSUP',
  'EOPNOTSUPP',
  'EROFS',
  'ENOTDIR',
  'ENOENT',
]);

/** What the holder at `path` says it is; null when none answers (no holder, or it is gone). */
function ask(path: string): Promise<Holder | null | 'refused'> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    let text = '';
    const timer = setTimeout(() => socket.destroy(), 2_000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(e.code === 'ECONNREFUSED' || e.code === 'ENOENT' ? 'refused' : null);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(text) as Holder);
      } catch {
        // a holder's answer that is not JSON names no holder
        resolve(null);
      }
    });
  });
}

function listenOn(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Takes the store folder for this process, or fails with StoreHeld naming the process that holds
 * it. The hold never keeps the process alive by itself.
 */
export async function own(folder: string): Promise<Ownership> {
  const real = await realpath(folder);
  const holder: Holder = {
    pid: process.pid,
    command: ['dipswitch', ...process.argv.slice(2)].join(' '),
    since: new Date(wallClock()).toISOString(),
  };
  const held: Server[] = [];
  const releaseAll = () => Promise.all(held.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  try {
    for (const address of addressesOf(real)) {
      const server = await hold(address, real, holder);
      if (server) held.push(server);
    }
  } catch (e) {
    await releaseAll();
    throw e;
  }
  return {
    describe(url) {
      holder.url = url;
    },
    release: async () => {
      await releaseAll();
    },
  };
}

/** Takes one hold of the folder; null when the folder cannot hold a socket file (NO_SOCKET_FILE). */
async function hold(address: { path: string; file: boolean }, real: string, holder: Holder): Promise<Server | null> {
  const { path, file } = address;
  const server = createServer((socket) => socket.end(JSON.stringify(holder)));
  for (let attempt = 0; ; attempt++) {
    try {
      await listenOn(server, path);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (file && NO_SOCKET_FILE.has(code)) return null;
      if (code !== 'EADDRINUSE') throw e;
      const answer = await ask(path);
      // a socket file whose process is gone: nobody holds the folder
      if (answer === 'refused' && file && attempt === 0) {
        await rm(path, { force: true });
        continue;
      }
      throw new StoreHeld(real, answer === 'refused' ? null : answer);
    }
  }
  server.unref();
  return server;
}
