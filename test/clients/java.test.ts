/**
 * The Java client and its JUnit 5 extension (clients/java), built and run as a JVM team runs them here: the
 * JDK and Debian's jars (no Maven Central), the server started from the command the settings name, each
 * test's sandbox its own under JUnit's parallel execution, the run's coverage gated from the environment, a
 * `kill -9` of the JVM leaving no server behind; the example team's suite (examples/java); the jar and its
 * pom. Outside CI, without a JDK or the jars, skipped saying why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { eventually } from '../support/eventually.js';

const LIBS = '/usr/share/java';
const java =
  spawnSync('javac', ['-version'], { encoding: 'utf8' }).status === 0 &&
  ['junit-platform-console-standalone.jar', 'jackson-databind.jar'].every((j) => existsSync(join(LIBS, j)));
if (!java) {
  if (process.env.CI)
    throw new Error('CI runs the Java client: install openjdk-17-jdk-headless, junit5, libjackson2-databind-java');
  console.warn('Java client tests skipped: no JDK or no junit5 and jackson jars');
}

const folder = join(projectRoot, 'clients', 'java');
const main = join(projectRoot, 'dist', 'src', 'cli', 'main.js');
/** The server the suites start; the seed marks this file's servers among the processes. */
const command = `${process.execPath} ${main} --memory --port 0 --clock frozen --seed 67067`;
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DIPSWITCH_')));

function run(script: string, args: string[], env: Record<string, string>) {
  return spawnSync('bash', [script, ...args], { encoding: 'utf8', timeout: 600_000, env: { ...clean, ...env } });
}

/** The servers this file started that still run. */
const ours = () =>
  spawnSync('pgrep', ['-f', '--', '--seed 67067'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

// a test waits as long as the builds and suites it runs may (javac of the client and its tests, a JUnit run)
describe.skipIf(!java)('the Java client', { timeout: 600_000 }, () => {
  it("its own suite under JUnit's parallel execution: sandboxes its own, the gate passes over it", () => {
    const ran = run(join(folder, 'build.sh'), ['test'], { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '1' });
    expect(ran.status, `${ran.stdout}${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/\[\s+18 tests successful\s+\]/);
    expect(ran.stdout).toMatch(/^dipswitch coverage of run junit-[\w-]+: .* passes the gate of 1%$/m);
    expect(ours()).toEqual([]);
  });

  it('a gate the run does not reach fails it, in one line; its server is gone after', () => {
    const ran = run(join(folder, 'build.sh'), ['test'], { DIPSWITCH_COMMAND: command, DIPSWITCH_FAIL_UNDER: '100' });
    expect(ran.status).toBe(1);
    expect(ran.stdout).toMatch(/^dipswitch coverage of run junit-[\w-]+: .* FAILS the gate of 100%$/m);
    expect(ran.stdout).toMatch(/\[\s+0 tests failed\s+\]/);
    expect(ran.stdout).toMatch(/\[\s+1 containers failed\s+\]/);
    expect(ours()).toEqual([]);
  });

  it('a kill -9 of the JVM leaves no server behind', async () => {
    const jars = ['jackson-databind', 'jackson-core', 'jackson-annotations', 'junit-platform-console-standalone'];
    const cp = ['build/test-classes', 'build/classes', ...jars.map((j) => join(LIBS, `${j}.jar`))].join(':');
    const jvm = spawn('java', ['-cp', cp, 'dev.dipswitch.StartAndWait'], {
      cwd: folder,
      env: { ...clean, DIPSWITCH_COMMAND: command },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    jvm.stdout.on('data', (d) => (out += d));
    const url = (await eventually(() => /started (\S+)/.exec(out)?.[1], 'the JVM to start its server', 90_000))!;
    expect((await fetch(`${url}/__sim/health`)).status).toBe(200);
    jvm.kill('SIGKILL');
    await eventually(async () => !(await fetch(`${url}/__sim/health`).catch(() => null)), 'the server to be gone');
    expect(ours()).toEqual([]);
  });

  it("the example team's suite (examples/java) passes, its gate set in the environment alone", () => {
    const ran = run(join(projectRoot, 'examples', 'java', 'run-tests.sh'), [], {
      DIPSWITCH_COMMAND: command,
      DIPSWITCH_FAIL_UNDER: '10',
    });
    expect(ran.status, `${ran.stdout}${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/twoNumbersOrderedAndWaitedForOnTheClock\(Sandbox\)( \d+ ms)? ✔/);
    expect(ran.stdout).toMatch(/\[\s+5 tests successful\s+\]/);
    expect(ran.stdout).toMatch(/passes the gate of 10%/);
    // a team writes no helper beside its tests but its own /api/v1 client: the receiver and the signature check
    // are the client's
    expect(readdirSync(join(projectRoot, 'examples', 'java', 'src', 'test', 'java', 'team')).sort()).toEqual([
      'ListingTest.java',
      'OrderTest.java',
      'WebhookTest.java',
    ]);
  });

  it("the README's example compiles and runs as pasted: a signed SMS at the test's receiver, a fault, a verify", () => {
    const built = run(join(folder, 'build.sh'), ['jar'], {});
    expect(built.status, built.stderr).toBe(0);
    const jar = join(folder, built.stdout.trim().split('\n').at(-1)!);
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-java-readme-'));
    const readme = readFileSync(join(folder, 'README.md'), 'utf8');
    const files = [...readme.matchAll(/```java file=(\S+)\n([\s\S]*?)```/g)];
    expect(files.map((f) => f[1])).toEqual(['SmsTest.java']);
    for (const [, file, text] of files) writeFileSync(join(dir, file!), text!);
    const jars = ['jackson-databind', 'jackson-core', 'jackson-annotations', 'junit-platform-console-standalone'];
    const cp = [jar, ...jars.map((j) => join(LIBS, `${j}.jar`))].join(':');
    const javac = spawnSync(
      'javac',
      ['-d', join(dir, 'classes'), '-cp', cp, '--release', '17', join(dir, 'SmsTest.java')],
      {
        encoding: 'utf8',
      },
    );
    expect(javac.status, javac.stderr).toBe(0);
    const tests = spawnSync(
      'java',
      [
        '-cp',
        `${join(dir, 'classes')}:${cp}`,
        'org.junit.platform.console.ConsoleLauncher',
        '--disable-banner',
        '--disable-ansi-colors',
        '--details=tree',
        '--scan-classpath',
        join(dir, 'classes'),
      ],
      { encoding: 'utf8', timeout: 300_000, env: { ...clean, DIPSWITCH_COMMAND: command } },
    );
    rmSync(dir, { recursive: true, force: true });
    expect(tests.status, `${tests.stdout}${tests.stderr}`).toBe(0);
    expect(tests.stdout).toMatch(/\[\s+2 tests successful\s+\]/);
    expect(ours()).toEqual([]);
  });

  it('the jar and its pom: the coordinates, version and licence of what is built, Jackson the one dependency', () => {
    const built = run(join(folder, 'build.sh'), ['jar'], {});
    expect(built.status, built.stderr).toBe(0);
    const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string })
      .version;
    const jar = join(folder, 'build', `dipswitch-${version}.jar`);
    expect(built.stdout.trim().split('\n').at(-1)).toBe(`build/dipswitch-${version}.jar`);
    const listed = spawnSync('jar', ['--list', '--file', jar], { encoding: 'utf8' }).stdout;
    for (const entry of [
      'dev/dipswitch/Dipswitch.class',
      'dev/dipswitch/junit/DipswitchExtension.class',
      'META-INF/LICENSE',
    ])
      expect(listed).toContain(entry);
    const pom = readFileSync(join(folder, 'pom.xml'), 'utf8');
    expect(spawnSync('xmllint', ['--noout', join(folder, 'pom.xml')]).status, 'well formed').toBe(0);
    const tag = (name: string, text = pom) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
    expect([tag('groupId'), tag('artifactId'), tag('version')]).toEqual(['dev.dipswitch', 'dipswitch', version]);
    expect(pom).toContain('<name>Apache License 2.0</name>');
    expect(readFileSync(join(folder, 'LICENSE'), 'utf8')).toBe(readFileSync(join(projectRoot, 'LICENSE'), 'utf8'));
    // the Jackson the pom names is the one built and tested with here
    const jackson = /<artifactId>jackson-databind<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(pom)?.[1];
    const unpacked = mkdtempSync(join(tmpdir(), 'dipswitch-jackson-'));
    spawnSync('jar', ['--extract', '--file', join(LIBS, 'jackson-databind.jar'), 'META-INF/MANIFEST.MF'], {
      cwd: unpacked,
    });
    const manifest = readFileSync(join(unpacked, 'META-INF', 'MANIFEST.MF'), 'utf8');
    rmSync(unpacked, { recursive: true, force: true });
    expect(/^Implementation-Version: (\S+)/m.exec(manifest)?.[1]).toBe(jackson);
  });
});
