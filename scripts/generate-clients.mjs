// The clients' generated code, from contract/sim.yaml (npm run generate): for Python
// (scripts/client-python.mjs), Go (scripts/client-go.mjs), Java (scripts/client-java.mjs), PHP
// (scripts/client-php.mjs) and Ruby (scripts/client-ruby.mjs), every schema
// of the control API as a type, every enumeration with its values, the operations' table, and one module,
// file or class per area of `x-client` with a method per operation; and the READMEs' method lists, read
// from the clients as they are. A path, a field, an enumeration or an operation is written once, in the
// contract. `--check` writes nothing and exits 1 when a generated file is not what the contract makes (the
// suite runs it).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { JAVA_MODEL, javaFiles } from './client-java.mjs';
import { goFiles } from './client-go.mjs';
import { nodeFiles } from './client-node.mjs';
import { PHP_MODEL, phpFiles } from './client-php.mjs';
import { pythonFiles } from './client-python.mjs';
import { rubyFiles } from './client-ruby.mjs';
import {
  goMethods,
  javaMethods,
  nodeMethods,
  phpMethods,
  pythonMethods,
  rubyMethods,
  withBlock,
} from './client-readmes.mjs';
import { root } from './contract-model.mjs';

const files = {
  ...nodeFiles(),
  ...pythonFiles(),
  ...goFiles(),
  ...javaFiles(),
  ...phpFiles(),
  ...rubyFiles(),
};
const check = process.argv.includes('--check');
const stale = [];

/** Each file written (or, with --check, compared): what it holds and what the contract makes. */
function put(entries) {
  for (const [file, text] of entries) {
    let now = '';
    try {
      now = readFileSync(file, 'utf8');
    } catch {
      /* absent: stale */
    }
    if (now === text) continue;
    if (check) stale.push(file);
    else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
}
put(Object.entries(files));
// the Java and PHP models' folders are generated whole: a file no schema makes any more goes
const modelFiles = [];
for (const folder of [JAVA_MODEL, PHP_MODEL]) {
  try {
    modelFiles.push(...readdirSync(folder).map((f) => join(folder, f)));
  } catch {
    /* absent: nothing left over */
  }
}
for (const file of modelFiles.filter((f) => !(f in files))) {
  if (check) stale.push(file);
  else rmSync(file);
}
// the READMEs' method lists, read from the clients as they now are (their generated code written first)
put(
  [
    [join('clients', 'python', 'README.md'), pythonMethods],
    [join('clients', 'go', 'README.md'), goMethods],
    [join('clients', 'java', 'README.md'), javaMethods],
    [join('clients', 'php', 'README.md'), phpMethods],
    [join('clients', 'ruby', 'README.md'), rubyMethods],
    [join('docs', 'library.md'), nodeMethods],
  ].map(([file, methods]) => {
    const readme = join(root, file);
    return [readme, withBlock(readFileSync(readme, 'utf8'), methods(), readme)];
  }),
);
if (stale.length) {
  console.error(`not what contract/sim.yaml makes (npm run generate): ${stale.join(', ')}`);
  process.exit(1);
}
