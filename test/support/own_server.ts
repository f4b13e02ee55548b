/** A dipswitch of a test's own, as a process of the built command, in memory, its clock frozen (the clients' tests). */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/contract.js';

/** The built command. */
export const MAIN = join(projectRoot, 'dist', 'src', 'cli', 'main.js');

/** Starts one with `env` as its whole environment: its URL, and its stop. */
export async function ownServer(env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [MAIN, '--memory', '--port', '0', '--clock', 'frozen', '--no-smpp'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let said = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      said += d;
      const m = /serving (http:\/\/[^\s"/]+)\/api\/v1/.exec(said);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`dipswitch exited ${code}: ${said}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** Whether a dipswitch answers at `url`. */
export const answers = (url: string): Promise<boolean> =>
  fetch(`${url}/__sim/health`).then(
    () => true,
    () => false,
  );
