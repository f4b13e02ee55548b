// Part of `npm run build`: the contracts as JSON beside the compiled code (start-up skips parsing YAML),
// and the dashboard's files (src/ui) copied beside it. Each file is written whole, then renamed into
// place: a server starting meanwhile reads the old or the new.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

mkdirSync('dist/contract', { recursive: true });
// beside each, the digest of the YAML it was made from (src/contract.ts reads the JSON only when it matches)
for (const name of ['openapi', 'sim']) {
  const yaml = readFileSync(`contract/${name}.yaml`, 'utf8');
  for (const [ext, text] of [
    ['json', JSON.stringify(parse(yaml))],
    ['sha256', createHash('sha256').update(yaml).digest('hex')],
  ]) {
    writeFileSync(`dist/contract/${name}.${ext}.tmp`, text);
    renameSync(`dist/contract/${name}.${ext}.tmp`, `dist/contract/${name}.${ext}`);
  }
}

mkdirSync('dist/src/ui', { recursive: true });
for (const file of readdirSync('src/ui')) {
  copyFileSync(`src/ui/${file}`, `dist/src/ui/${file}.tmp`);
  renameSync(`dist/src/ui/${file}.tmp`, `dist/src/ui/${file}`);
}
