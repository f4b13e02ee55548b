// Part of `npm run build`: the contract as JSON beside the compiled code, so start-up skips parsing YAML.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

mkdirSync('dist/contract', { recursive: true });
for (const name of ['openapi', 'sim']) {
  writeFileSync(`dist/contract/${name}.json`, JSON.stringify(parse(readFileSync(`contract/${name}.yaml`, 'utf8'))));
}
