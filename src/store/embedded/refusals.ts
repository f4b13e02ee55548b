/** Why the embedded store cannot be opened or used: its files are not a store, or the system refuses them. */

/** The store cannot be opened as it is: the message says which file, where, and what to do. */
export class StoreRefused extends Error {
  constructor(
    message: string,
    readonly kind: 'damaged' | 'not_a_store' | 'newer',
  ) {
    super(message);
  }
}

/** What an operating system error code means for a store, in words. */
const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  ENOSPC: 'no space left on the device',
  // not the operating system's: the path is a FIFO, a device or a socket (dirs.ts onlyFiles)
  ENOTFILE: 'not a regular file (a FIFO, a device or a socket): give the path of a file',
};

/** The store's files cannot be read or written (permissions, a read-only disk): the message names the path. */
export class StoreInaccessible extends Error {
  constructor(
    store: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    const reason = FS_REASONS[cause.code ?? ''] ?? cause.message;
    const code = cause.code && cause.code !== 'ENOTFILE' ? ` (${cause.code})` : '';
    super(`cannot use the store ${store}: ${cause.path ?? store}: ${reason}${code}`);
  }
}

/** `e` as a StoreInaccessible of `store` when it is an operating system error about a path; otherwise `e`. */
export function inaccessible(store: string, e: unknown): unknown {
  const err = e as NodeJS.ErrnoException;
  return err && typeof err.code === 'string' && typeof err.path === 'string' && err.code in FS_REASONS
    ? new StoreInaccessible(store, err)
    : e;
}
