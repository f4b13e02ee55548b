// A release made here, where nothing can be published (npm run release:dry): every artifact of package.json's
// version made and proven, as .github/workflows/release.yml makes them on a tag.
// - the npm tarball, installed into a scratch project: `dipswitch --version`, a start (health says the version)
//   and a stop;
// - the image, built from the Dockerfile with VERSION, its labels read back (podman; skipped, said, without it);
// - the Python sdist and wheel (Debian's python3-build), the wheel installed in a fresh venv, its plugin loaded;
// - the Go module built and vetted as a copy at its tag's path (clients/go/vVERSION);
// - the Java jar and its pom (clients/java/build.sh), a fresh project compiled and run against the jar alone;
// - the Composer package (composer archive, a tar), required by a fresh project from a path repository, offline;
// - the gem (gem build), installed locally into a folder of its own and required;
// - the release notes, CHANGELOG.md's section of the version.
// The files land in release-dry/; prints the artifacts; exits 1 at the first that fails its proof.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { versionsOff, versionsSaid } from './versions.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = versionsSaid(root)[0].version;
// the artifacts in release-dry/ (ignored by git, made anew each run); what proves them in a scratch folder
const out = join(root, 'release-dry');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
const scratch = mkdtempSync(join(tmpdir(), `dipswitch-release-${version}-`));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const artifacts = [];

function fail(what) {
  console.error(`release:dry: ${what}`);
  process.exit(1);
}

/** Runs a command to its end; its output when it succeeds, else the release fails naming it. */
function must(command, args, opts = {}) {
  const ran = spawnSync(command, args, { encoding: 'utf8', timeout: 900_000, ...opts });
  if (ran.status !== 0)
    fail(`${command} ${args.join(' ')}: exit ${ran.status}\n${(ran.stderr || ran.stdout || '').slice(-3000)}`);
  return ran.stdout;
}

const step = (what) => console.log(`\n== ${what}`);
const kept = (file, note) => artifacts.push({ file, bytes: statSync(file).size, note });

step(`one version: ${version}`);
const off = versionsOff(root);
if (off.length) fail(`not package.json's version: ${off.map((s) => s.where).join(', ')}`);

step('the npm tarball');
const npmDir = join(out, 'npm');
mkdirSync(npmDir);
must('npm', ['pack', '--silent', '--pack-destination', npmDir], { cwd: root });
const tarball = join(npmDir, `dipswitch-${version}.tgz`);
if (!existsSync(tarball)) fail(`npm pack made no ${tarball}`);
kept(tarball, 'npm package');
const project = join(scratch, 'npm-project');
mkdirSync(project);
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
must('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', '--prefer-offline', tarball], { cwd: project });
const bin = join(project, 'node_modules', '.bin', 'dipswitch');
const said = must('npx', ['--no-install', 'dipswitch', '--version'], { cwd: project }).trim();
if (said !== version) fail(`dipswitch --version says ${said}, not ${version}`);
await new Promise((resolve) => {
  const child = spawn(bin, ['--memory', '--port', '0', '--no-smpp'], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const timer = setTimeout(() => fail(`the installed dipswitch did not serve within 30 s:\n${log}`), 30_000);
  child.stdout.on('data', async (d) => {
    log += d;
    const m = /serving (http:\/\/[^\s"/]+)\/api\/v1/.exec(log);
    if (!m || child.served) return;
    child.served = true;
    const health = await (await fetch(`${m[1]}/__sim/health`)).json();
    if (health.version !== version) fail(`/__sim/health says ${JSON.stringify(health)}`);
    child.kill('SIGTERM');
  });
  child.on('exit', (code) => {
    clearTimeout(timer);
    if (code !== 0) fail(`the installed dipswitch stopped with ${code}:\n${log}`);
    console.log(`installed, --version ${said}, served and stopped with 0`);
    resolve();
  });
});

step('the image');
const containersConf = process.env.CONTAINERS_CONF ?? join(root, 'containers', 'containers.conf');
const podmanEnv = { ...process.env, CONTAINERS_CONF: containersConf };
if (spawnSync('podman', ['--version']).status !== 0) {
  if (process.env.CI) fail('CI makes the image: install podman');
  console.log('skipped: no podman');
} else {
  const base = process.env.NODE_IMAGE ?? 'localhost/node:22-bookworm-slim';
  if (!process.env.NODE_IMAGE) must(join(root, 'containers', 'stand-in-node.sh'), ['22', base], { env: podmanEnv });
  const ca = '/etc/ssl/certs/ca-certificates.crt';
  const tag = `localhost/dipswitch:${version}`;
  must(
    'podman',
    [
      'build',
      '--format',
      'docker',
      '--build-arg',
      `NODE_IMAGE=${base}`,
      '--build-arg',
      `VERSION=${version}`,
      '--build-arg',
      'SOURCE=release-dry',
      ...(existsSync(ca) ? ['--secret', `id=ca,src=${ca}`] : []),
      '--tag',
      tag,
      root,
    ],
    { env: podmanEnv },
  );
  const labels = JSON.parse(
    must('podman', ['image', 'inspect', tag, '--format', '{{json .Labels}}'], { env: podmanEnv }),
  );
  if (labels['org.opencontainers.image.version'] !== version)
    fail(`the image's version label: ${JSON.stringify(labels)}`);
  if (labels['org.opencontainers.image.source'] !== 'release-dry')
    fail(`the image's source label: ${JSON.stringify(labels)}`);
  const size = JSON.parse(must('podman', ['image', 'inspect', tag, '--format', '{{json .Size}}'], { env: podmanEnv }));
  artifacts.push({
    file: `image ${tag}`,
    bytes: size,
    note: `version label ${labels['org.opencontainers.image.version']}`,
  });
}

step('the Python sdist and wheel');
const python = '/usr/bin/python3';
const pyOut = join(out, 'python');
must(python, [
  '-m',
  'build',
  '--no-isolation',
  '--sdist',
  '--wheel',
  '--outdir',
  pyOut,
  join(root, 'clients', 'python'),
]);
const wheel = readdirSync(pyOut).find((f) => f.endsWith('.whl'));
const sdist = readdirSync(pyOut).find((f) => f.endsWith('.tar.gz'));
if (!wheel?.includes(`-${version}-`) || !sdist?.includes(`-${version}.`)) fail(`python: ${readdirSync(pyOut)}`);
const venv = join(scratch, 'venv');
must(python, ['-m', 'venv', '--system-site-packages', venv]);
must(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '-q', '--no-index', join(pyOut, wheel)], {
  env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
});
const imported = must(join(venv, 'bin', 'python'), ['-c', 'import dipswitch; print(dipswitch.__version__)'], {
  cwd: scratch,
}).trim();
if (imported !== version) fail(`the wheel's dipswitch.__version__ is ${imported}`);
const help = must(join(venv, 'bin', 'python'), ['-m', 'pytest', '--help', '-p', 'no:cacheprovider'], {
  cwd: scratch,
});
if (!help.includes('--dipswitch-url')) fail("the wheel's pytest plugin is not loaded");
kept(join(pyOut, wheel), 'Python wheel, its plugin loaded in a fresh venv');
kept(join(pyOut, sdist), 'Python sdist');

step('the Go module');
if (spawnSync('go', ['version']).status !== 0) {
  if (process.env.CI) fail('CI builds the Go module: install golang');
  console.log('skipped: no go');
} else {
  const tagPath = join(scratch, 'go', 'clients', 'go', `v${version}`);
  cpSync(join(root, 'clients', 'go'), tagPath, { recursive: true });
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  must('go', ['build', './...'], { cwd: tagPath, env });
  must('go', ['vet', './...'], { cwd: tagPath, env });
  artifacts.push({ file: `tag clients/go/v${version}`, bytes: 0, note: 'Go module, built and vetted' });
}

step('the Java jar and its pom');
if (spawnSync('javac', ['-version']).status !== 0) {
  if (process.env.CI)
    fail('CI builds the Java jar: install openjdk-17-jdk-headless, junit5, libjackson2-databind-java');
  console.log('skipped: no javac');
} else {
  const javaOut = join(out, 'java');
  mkdirSync(javaOut);
  const built = must('bash', [join(root, 'clients', 'java', 'build.sh'), 'jar'])
    .trim()
    .split('\n')
    .at(-1);
  const jar = join(javaOut, `dipswitch-${version}.jar`);
  cpSync(join(root, 'clients', 'java', built), jar);
  cpSync(join(root, 'clients', 'java', 'pom.xml'), join(javaOut, `dipswitch-${version}.pom`));
  must('xmllint', ['--noout', join(javaOut, `dipswitch-${version}.pom`)]);
  // a fresh project: its code against the jar and Jackson alone, started with the jar on its class path
  const fresh = join(scratch, 'java-project');
  mkdirSync(join(fresh, 'team'), { recursive: true });
  writeFileSync(
    join(fresh, 'team', 'Uses.java'),
    'package team;\npublic class Uses {\n  public static void main(String[] a) {\n' +
      '    System.out.println(dev.dipswitch.Dipswitch.VERSION + " " + dev.dipswitch.Operations.ALL.size());\n  }\n}\n',
  );
  const libs = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map((j) => `/usr/share/java/${j}.jar`);
  const cp = [jar, ...libs].join(':');
  must('javac', ['-d', join(fresh, 'classes'), '-cp', cp, '--release', '17', join(fresh, 'team', 'Uses.java')]);
  const ran = must('java', ['-cp', `${join(fresh, 'classes')}:${cp}`, 'team.Uses']).trim();
  if (!ran.startsWith(`${version} `)) fail(`the jar says ${ran}, not ${version}`);
  kept(jar, 'Java jar');
  kept(join(javaOut, `dipswitch-${version}.pom`), 'its pom');
}

step('the Composer package');
if (spawnSync('composer', ['--version'], { env: { ...process.env, COMPOSER_ALLOW_SUPERUSER: '1' } }).status !== 0) {
  if (process.env.CI) fail('CI makes the Composer package: install php-cli, php-curl and composer');
  console.log('skipped: no composer');
} else {
  const env = { ...process.env, COMPOSER_ALLOW_SUPERUSER: '1', COMPOSER_HOME: join(scratch, 'composer-home') };
  const phpOut = join(out, 'php');
  mkdirSync(phpOut);
  const php = join(root, 'clients', 'php');
  must('composer', ['validate', '--strict', '--no-check-publish', '--no-check-version'], { cwd: php, env });
  const name = `dipswitch-php-${version}`;
  must('composer', ['archive', '--format=tar', `--dir=${phpOut}`, `--file=${name}`], { cwd: php, env });
  // a fresh project requires it as its README says: the tar unpacked, a path repository, nothing else reached
  const fresh = join(scratch, 'php-project');
  mkdirSync(join(fresh, 'packages', 'dipswitch'), { recursive: true });
  must('tar', ['-xf', join(phpOut, `${name}.tar`), '-C', join(fresh, 'packages', 'dipswitch')]);
  const repositories = [
    { type: 'path', url: 'packages/dipswitch', options: { symlink: false } },
    { 'packagist.org': false },
  ];
  writeFileSync(join(fresh, 'composer.json'), JSON.stringify({ repositories }));
  must('composer', ['require', '--no-interaction', '--dev', `dipswitch/dipswitch:${version}`], { cwd: fresh, env });
  const ran = must('php', ['-r', 'require "vendor/autoload.php"; echo Dipswitch\\Launcher::VERSION;'], { cwd: fresh });
  if (ran.trim() !== version) fail(`the Composer package says ${ran}, not ${version}`);
  kept(join(phpOut, `${name}.tar`), 'Composer package, required by a fresh project');
}

step('the gem');
if (spawnSync('gem', ['--version']).status !== 0) {
  if (process.env.CI) fail('CI makes the gem: install ruby');
  console.log('skipped: no gem');
} else {
  const rubyOut = join(out, 'ruby');
  mkdirSync(rubyOut);
  const gem = join(rubyOut, `dipswitch-${version}.gem`);
  must('gem', ['build', 'dipswitch.gemspec', '--output', gem], { cwd: join(root, 'clients', 'ruby') });
  // installed as its README says, into a folder of its own (the machine's gems untouched), then required
  const gems = join(scratch, 'gems');
  must('gem', ['install', '--local', '--no-document', '--ignore-dependencies', '--install-dir', gems, gem]);
  const ran = must('ruby', ['-e', 'require "dipswitch"; print Dipswitch::VERSION, " ", Dipswitch::OPERATIONS.size'], {
    env: { ...process.env, GEM_HOME: gems, GEM_PATH: `${gems}:${process.env.GEM_PATH ?? ''}` },
  });
  if (!ran.startsWith(`${version} `)) fail(`the gem says ${ran}, not ${version}`);
  kept(gem, 'gem, installed and required');
}

step(`the release notes (CHANGELOG.md's ${version})`);
const notes = must(process.execPath, [join(root, 'scripts', 'changelog.mjs'), version]);
writeFileSync(join(out, 'notes.md'), notes);
kept(join(out, 'notes.md'), 'release notes');

step(`dipswitch ${version}: every artifact made and proven`);
for (const a of artifacts) console.log(`${a.file}\t${a.bytes ? `${(a.bytes / 1024).toFixed(0)} KB` : ''}\t${a.note}`);
