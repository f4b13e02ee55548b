// Where this release's version is said, and whether each says package.json's (the one source): the Python
// package (pyproject.toml and dipswitch/_version.py), the Go client's Version constant, the Java client's pom and
// VERSION, the PHP package's composer.json and Launcher::VERSION, the gem's Dipswitch::VERSION, the image's label,
// and the
// defaults of the GitHub Action and the GitLab component. `dipswitch
// --version`, /__sim/health, the Testcontainers module's default tag and the image's label read package.json
// themselves. `node scripts/versions.mjs [ROOT]` prints each place and exits 1 naming those that differ.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each place that says the version, with what it says (null: not found there). */
export function versionsSaid(root) {
  const read = (path, pattern) => {
    try {
      return pattern.exec(readFileSync(join(root, path), 'utf8'))?.[1] ?? null;
    } catch {
      return null; // a file that is not there says nothing
    }
  };
  return [
    { where: 'package.json', version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version },
    {
      where: 'clients/python/pyproject.toml',
      version: read('clients/python/pyproject.toml', /^version = "([^"]+)"$/m),
    },
    {
      where: 'clients/python/src/dipswitch/_version.py',
      version: read('clients/python/src/dipswitch/_version.py', /^__version__ = "([^"]+)"$/m),
    },
    { where: 'clients/go/client.go', version: read('clients/go/client.go', /^const Version = "([^"]+)"$/m) },
    {
      where: 'clients/java/pom.xml',
      version: read('clients/java/pom.xml', /<artifactId>dipswitch<\/artifactId>\s*<version>([^<]+)<\/version>/),
    },
    {
      where: 'clients/java (Dipswitch.VERSION)',
      version: read(
        'clients/java/src/main/java/dev/dipswitch/Dipswitch.java',
        /public static final String VERSION = "([^"]+)";/,
      ),
    },
    { where: 'clients/php/composer.json', version: read('clients/php/composer.json', /^ {2}"version": "([^"]+)",$/m) },
    {
      where: 'clients/php (Launcher::VERSION)',
      version: read('clients/php/src/Launcher.php', /public const VERSION = '([^']+)';/),
    },
    {
      where: 'clients/ruby (Dipswitch::VERSION)',
      version: read('clients/ruby/lib/dipswitch/version.rb', /VERSION = '([^']+)'/),
    },
    { where: 'Dockerfile (ARG VERSION, the image label)', version: read('Dockerfile', /^ARG VERSION=(\S+)$/m) },
    {
      where: "action.yml (the version input's default)",
      version: read('action.yml', /^ {4}default: (\d+\.\d+\.\d+\S*)$/m),
    },
    {
      where: "templates/dipswitch.yml (the image's tag)",
      version: read('templates/dipswitch.yml', /default: dipswitch:(\S+)$/m),
    },
    {
      where: 'templates/dipswitch.yml (the command fetched)',
      version: read('templates/dipswitch.yml', /default: npx --yes dipswitch@(\S+)$/m),
    },
  ];
}

/** The places whose version is not package.json's. */
export const versionsOff = (root) => {
  const said = versionsSaid(root);
  return said.filter((s) => s.version !== said[0].version);
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  for (const s of versionsSaid(root)) console.log(`${s.version ?? '(none)'}\t${s.where}`);
  const off = versionsOff(root);
  if (off.length) {
    console.error(`not package.json's version: ${off.map((s) => s.where).join(', ')}`);
    process.exit(1);
  }
}
