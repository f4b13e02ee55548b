/**
 * lowdb adapters. The file adapter makes a write durable before it resolves: the JSON goes to a
 * temporary file, is fsynced, and renamed over the old one, so a crash leaves the old or the new state.
 */
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';

export class DurableJsonFile<T> implements Adapter<T> {
  constructor(private readonly path: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return text.trim() === '' ? null : (JSON.parse(text) as T);
  }

  async write(data: T): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify(data));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.path);
  }
}
