/** A one-file tar.gz (the on-done action's `archive_format: TAR_GZ`): tar-stream writes the ustar archive, zlib gzips it. */
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';

/** A POSIX ustar archive holding `name` (modified at `mtimeMs`), gzipped. */
export async function tarGz(name: string, bytes: Buffer, mtimeMs: number): Promise<Buffer> {
  const archive = pack();
  archive.entry({ name, size: bytes.length, mode: 0o644, mtime: new Date(mtimeMs) }, bytes);
  archive.finalize();
  const gzip = createGzip();
  const [out] = await Promise.all([buffer(gzip), pipeline(archive, gzip)]);
  return out;
}
