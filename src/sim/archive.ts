/** A one-file tar.gz (the on-done action's `archive_format: TAR_GZ`), made with node's zlib. */
import { gzipSync } from 'node:zlib';

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** A POSIX ustar archive holding `name`, gzipped. */
export function tarGz(name: string, bytes: Buffer, mtimeMs: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 99), 0, 'utf8');
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(bytes.length, 12), 124);
  header.write(octal(Math.floor(mtimeMs / 1000), 12), 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(octal(sum, 7) + ' ', 148);
  const padding = Buffer.alloc((512 - (bytes.length % 512)) % 512);
  return gzipSync(Buffer.concat([header, bytes, padding, Buffer.alloc(1024)]));
}
