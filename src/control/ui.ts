/**
 * The dashboard's files (`GET /__sim/ui`, `/__sim/ui/{asset}`): plain modules and a style sheet in
 * src/ui/, copied beside the compiled code by `npm run build`. They hold no data: the page reads
 * and steers everything through the control API and /api/v1, as a script would.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const uiDir = fileURLToPath(new URL('../ui/', import.meta.url));

/** The files there are, with their content types. */
const ASSETS: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

const read = new Map<string, string>();

/** A file of the dashboard and its content type, or null when there is no such file. */
export function dashboardAsset(name: string): { text: string; contentType: string } | null {
  const contentType = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!contentType) return null;
  let text = read.get(name);
  if (text === undefined) read.set(name, (text = readFileSync(`${uiDir}${name}`, 'utf8')));
  return { text, contentType };
}
