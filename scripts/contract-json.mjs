// Part of `npm run build`: the contract as JSON beside the compiled code, so start-up skips parsing YAML.
// Each file is written whole and then renamed into place: a server starting meanwhile reads the old or the new.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

mkdirSync('dist/contract', { recursive: true });
for (const name of ['openapi', 'sim']) {
  const json = JSON.stringify(parse(readFileSync(`contract/${name}.yaml`, 'utf8')));
  writeFileSync(`dist/contract/${name}.json.tmp`, json);
  renameSync(`dist/contract/${name}.json.tmp`, `dist/contract/${name}.json`);
}
