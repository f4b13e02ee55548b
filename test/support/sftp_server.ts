/** An SFTP server on loopback (ssh2), for tests: password logins, files kept in memory by path. */
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

export interface SftpServer {
  host: string;
  port: number;
  files: Map<string, Buffer>;
  logins: { username: string; password: string }[];
  close(): Promise<void>;
}

const hostKey = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
}).privateKey;

export async function startSftpServer(accept: (username: string, password: string) => boolean): Promise<SftpServer> {
  const files = new Map<string, Buffer>();
  const logins: { username: string; password: string }[] = [];
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password') {
        logins.push({ username: ctx.username, password: ctx.password });
        if (accept(ctx.username, ctx.password)) return ctx.accept();
      }
      ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const open = new Map<number, { path: string; chunks: Buffer[] }>();
          let next = 0;
          sftp.on('OPEN', (reqid, filename) => {
            const handle = Buffer.alloc(4);
            handle.writeUInt32BE(next);
            open.set(next++, { path: filename, chunks: [] });
            sftp.handle(reqid, handle);
          });
          sftp.on('WRITE', (reqid, handle, _offset, data) => {
            open.get(handle.readUInt32BE(0))?.chunks.push(Buffer.from(data));
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (reqid, handle) => {
            const file = open.get(handle.readUInt32BE(0));
            if (file) files.set(file.path, Buffer.concat(file.chunks));
            sftp.status(reqid, STATUS_CODE.OK);
          });
        });
      });
    });
    client.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    files,
    logins,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
