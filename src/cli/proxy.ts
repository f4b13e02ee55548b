/** `dipswitch proxy`: the validating proxy, and what may ride on it: recording (`--record`) and shadowing (`--shadow`). */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { wallClock } from '../deps.js';
import type { LogLevel } from './log.js';
import { loggerOf } from './options.js';
import { listening, Stop, version } from './stop.js';

export interface ProxyFlags {
  upstream: string;
  port: number;
  host: string;
  logLevel: LogLevel;
  quiet?: boolean;
  record?: string;
  recordFixtures?: boolean;
  shadow?: boolean;
  parityReport?: string;
}

/** The two files of `--parity-report FILE`: FILE.md and FILE.json (an extension of its own is dropped). */
export function reportFiles(file: string): { markdown: string; json: string } {
  const stem = resolve(file).replace(/\.(md|json)$/i, '');
  return { markdown: `${stem}.md`, json: `${stem}.json` };
}

export async function proxy(f: ProxyFlags) {
  const logger = loggerOf(f);
  if (f.recordFixtures && !f.record) throw new Stop('--record-fixtures needs --record DIR', 2);
  if (f.parityReport && !f.shadow) throw new Stop('--parity-report needs --shadow', 2);
  // the proxy's modules (and prism-http with them) are loaded only for this command
  const [{ startProxy }, { Recorder }, { Shadow }, { parityMarkdown }] = await Promise.all([
    import('../trust/proxy.js'),
    import('../trust/recording.js'),
    import('../trust/shadow.js'),
    import('../trust/parity.js'),
  ]);
  const at = new Date(wallClock()).toISOString();
  const recorder = f.record
    ? new Recorder({
        dir: resolve(f.record),
        name: `recorded-${at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`,
        title: `Recorded through dipswitch proxy from ${f.upstream} at ${at}`,
        fixtures: f.recordFixtures === true,
        logger,
      })
    : undefined;
  const shadow = f.shadow ? await Shadow.start({ logger }) : undefined;
  // what the last moment recorded and compared is written before the process ends
  const end = async () => {
    recorder?.write();
    if (shadow && f.parityReport) {
      await shadow.idle();
      const report = shadow.parity.report();
      const files = reportFiles(f.parityReport);
      writeFileSync(files.markdown, parityMarkdown(report));
      writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
      logger.info(`parity report: ${files.markdown}, ${files.json}`);
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void end());
  process.once('SIGINT', () => void end());
  const started = await listening(
    () =>
      startProxy({
        upstream: f.upstream,
        port: f.port,
        host: f.host,
        logger,
        now: () => new Date(wallClock()).toISOString(),
        recorder,
        shadow,
      }),
    f.host,
    f.port,
  );
  const port = (started.server.address() as AddressInfo).port;
  logger.info(
    `dipswitch ${version} validating proxy on http://${f.host}:${port} → ${f.upstream} (violations: GET /__proxy/violations)`,
  );
  if (recorder)
    logger.info(`recording to ${recorder.scenarioFile}${f.recordFixtures ? ` and ${recorder.fixtureFile}` : ''}`);
  if (shadow) logger.info(`shadowing (parity: GET /__proxy/parity); the shadow's dashboard: ${shadow.url}/__sim/ui`);
}
