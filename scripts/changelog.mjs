// A release's notes: the section of CHANGELOG.md for VERSION (`node scripts/changelog.mjs 0.1.0`), without its
// heading; exit 1 when there is none, so a release is never cut without notes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function sectionOf(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## [${version}]`));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## ['));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const version = process.argv[2];
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const section = version ? sectionOf(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version) : null;
  if (!section) {
    console.error(`CHANGELOG.md has no section for ${version ?? '(no version given)'}`);
    process.exit(1);
  }
  console.log(section);
}
