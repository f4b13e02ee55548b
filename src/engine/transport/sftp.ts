/**
 * SFTP uploads (spec: SFTP event subscriptions, call data webhooks, bulk dip on-done actions):
 * a real SSH connection with ssh2, password authentication, one file written. ssh2 is loaded at
 * the first upload: most servers never make one, and it costs start-up time. It is an optional
 * package (src/domain/features.ts): without it an upload fails with the line that says what to add.
 */
import { loadFeature } from '../../domain/features.js';

export interface SftpTarget {
  /** `sftp://host[:port]/dir`, or `host[:port]` (the call data webhook allows it). */
  url: string;
  username: string;
  password: string;
  /** The file's name, put under the URL's path (spec: the path is used to change directory). */
  filename: string;
}

/** Where a target points: host, port and the remote file path. */
export function sftpLocation(t: SftpTarget): { host: string; port: number; path: string } {
  const url = new URL(t.url.includes('://') ? t.url : `sftp://${t.url}`);
  const dir = decodeURIComponent(url.pathname).replace(/\/+$/, '');
  return { host: url.hostname, port: Number(url.port || 22), path: `${dir}/${t.filename}` };
}

/** Uploads one file; `resolve` names the address to connect to (the outbound policy checks it). */
export async function sftpUpload(
  t: SftpTarget,
  bytes: Buffer,
  timeoutMs: number,
  resolve: (host: string) => Promise<string> = async (host) => host,
): Promise<void> {
  const { host: name, port, path } = sftpLocation(t);
  const host = await resolve(name);
  const { Client } = await loadFeature('sftp', () => import('ssh2'));
  return new Promise((done, reject) => {
    const conn = new Client();
    const timer = setTimeout(() => {
      conn.end();
      reject(new Error(`no SFTP upload within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      conn.end();
      if (err) reject(err);
      else done();
    };
    conn.on('ready', () => {
      conn.sftp((err, sftp) => {
        if (err) return finish(err);
        sftp.writeFile(path, bytes, (werr) => finish(werr ?? undefined));
      });
    });
    conn.on('error', finish);
    conn.connect({
      host,
      port,
      username: t.username,
      password: t.password,
      readyTimeout: timeoutMs,
      hostVerifier: () => true,
    });
  });
}
