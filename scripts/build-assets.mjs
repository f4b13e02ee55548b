// Part of `npm run build`: the contracts as JSON beside the compiled code (start-up skips parsing YAML),
// and the dashboard's files (src/ui) copied beside it. Each file is written whole, then renamed into
// place: a server starting meanwhile reads the old or the new.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

mkdirSync('dist/contract', { recursive: true });
for (const name of ['openapi', 'sim']) {
  const json = JSON.stringify(parse(readFileSync(`contract/${name}.yaml`, 'utf8')));
  writeFileSync(`dist/contract/${name}.json.tmp`, json);
  renameSync(`dist/contract/${name}.json.tmp`, `dist/contract/${name}.json`);
}

mkdirSync('dist/src/ui', { recursive: true });
for (const file of readdirSync('src/ui')) {
  copyFileSync(`src/ui/${file}`, `dist/src/ui/${file}.tmp`);
  renameSync(`dist/src/ui/${file}.tmp`, `dist/src/ui/${file}`);
}
