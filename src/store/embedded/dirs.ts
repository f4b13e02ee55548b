/** Folders and files of the store's path. */
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p`, one folder at a time: Node's recursive mkdir never settles under some paths (a folder
 * under /proc), where this fails with the operating system's error.
 */
export async function makeDirs(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw e;
    await makeDirs(dirname(dir));
    await mkdir(dir).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== 'EEXIST') throw again;
    });
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (e) {
    // not there; a path that cannot be looked at (EACCES, EIO) is the caller's failure, not an absence
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/**
 * Fails unless each of `paths` is a regular file where it exists: reading a FIFO would wait forever,
 * a device would never end (/dev/zero) or say nothing (/dev/null).
 */
export async function onlyFiles(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    // a path not there yet is made later; one that cannot be looked at is the caller's failure
    const found = await stat(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (!found || found.isFile()) continue;
    const [code, message] = found.isDirectory() ? ['EISDIR', 'it is a folder'] : ['ENOTFILE', 'not a regular file'];
    throw Object.assign(new Error(message), { code, path });
  }
}

/**
 * Makes a folder's entries durable: a file created or renamed in it survives a power cut only once
 * the folder itself is fsynced (the file's own fsync covers its bytes, not its name).
 */
export async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
