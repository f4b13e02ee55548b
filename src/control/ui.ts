/**
 * The dashboard's files (`GET /__sim/ui`, `/__sim/ui/{asset}`): plain modules and a style sheet in
 * src/ui/, copied beside the compiled code by `npm run build`. They hold no data: the page reads
 * and steers everything through the control API and /api/v1, as a script would.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const uiDir = fileURLToPath(new URL('../ui/', import.meta.url));

/** The content type of each kind of file there is. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** A file's name: letters, digits, `-` and `_`, then its kind; no folder, so nothing outside src/ui is named. */
const NAME = /^[\w-]{1,50}\.(html|js|css)$/;

/** The files read so far (there are a dozen; each is read once). */
const read = new Map<string, string>();

/** A file of the dashboard and its content type, or null when there is no such file. */
export function dashboardAsset(name: string): { text: string; contentType: string } | null {
  const kind = NAME.exec(name)?.[1];
  if (!kind) return null;
  let text = read.get(name);
  if (text === undefined) {
    try {
      text = readFileSync(`${uiDir}${name}`, 'utf8');
    } catch (e) {
      // no such file of the dashboard: 404; one that cannot be read is a failure of the install
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    read.set(name, text);
  }
  return { text, contentType: TYPES[kind] ?? 'application/octet-stream' };
}
