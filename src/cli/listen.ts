/** `dipswitch listen`: a hosted dipswitch's deliveries to this machine, forwarded to a local URL (src/testing/listener.ts). */
import { listen as start, type Forwarded } from '../testing/listener.js';
import { Stop } from './stop.js';

export interface ListenFlags {
  url: string;
  key: string;
  forwardTo: string;
  name: string;
  all?: boolean;
  giveUp: number;
}

/** One line per delivery: time, kind, target, where it went, the local status (or why none), latency, and an answer not taken. */
export const forwardedLine = (f: Forwarded): string =>
  `${f.at}  ${f.kind.padEnd(6)} ${f.target} -> ${f.forwarded_to}  ${f.status ?? `failed: ${f.error ?? ''}`}  ${Math.round(f.latency_ms)} ms` +
  (f.body_cut ? '  (its body cut at 64 KB for the server)' : '') +
  (f.answer_error ? `  (the answer was not taken: ${f.answer_error}; the server retries it)` : '');

export async function listen(f: ListenFlags): Promise<void> {
  // a cut is said once, not at every try to connect again
  let cut = false;
  const listening = start({
    url: f.url,
    key: f.key,
    forwardTo: f.forwardTo,
    name: f.name,
    all: f.all,
    giveUpMs: f.giveUp,
    onListening: (l) => {
      cut = false;
      const what = l.all ? 'every HTTP delivery of the account' : `targets http(s)://${l.name}.listen.invalid`;
      process.stdout.write(
        `listening as ${l.name} (${what}) of account ${l.account_id}, forwarding to ${f.forwardTo}\n`,
      );
    },
    onDelivery: (d) => process.stdout.write(`${forwardedLine(d)}\n`),
    onCut: (why) => {
      if (!cut) process.stderr.write(`the stream was cut (${why}); connecting again every second\n`);
      cut = true;
    },
  });
  const interrupt = () => listening.close();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const why = await listening.stopped;
  if (why !== 'closed') throw new Stop(why, 1);
}
