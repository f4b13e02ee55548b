/** The commands `footprint` and `diff` (src/cli/changes.ts runs them). */
import { Option, type Command } from 'commander';
import type { DiffFlags, FootprintFlags } from './changes.js';
import { url, wholeNumber } from './values.js';

/** `footprint` and `diff`: what a suite used, and what a change of the contract means for it (src/changes). */
export function changesCommands(root: Command): void {
  root
    .command('footprint')
    .description('what a client suite used of the contract on a running dipswitch, for `diff --footprint`')
    .addOption(
      new Option('--url <url>', 'the dipswitch, e.g. http://127.0.0.1:4010').argParser(url).makeOptionMandatory(),
    )
    .option('--key <key>', "an account's key: that account's footprint (every account's without)")
    .addOption(
      new Option('--run <run>', 'the sandboxes made for this run (DIPSWITCH_RUN), live and removed').env(
        'DIPSWITCH_RUN',
      ),
    )
    .option('--account-id <id>', 'one account, live or removed')
    .option('--admin-token <token>', 'the admin token, where the server has one')
    .option('--out <file>', 'write it to this file (standard output without)')
    .action(async (f: FootprintFlags) => (await import('./changes.js')).footprint(f));
  root
    .command('diff')
    .description("the changes between two contracts (files or URLs), classified, crossed with a suite's footprint")
    .argument('[base]', "the contract today (a file or URL; dipswitch's own with --against)")
    .argument('[next]', 'the next contract (a file or URL)')
    .option(
      '--footprint <file>',
      'a footprint (`dipswitch footprint`): each change then says whether it concerns this suite',
    )
    .addOption(
      new Option(
        '--against <url>',
        "the provider's served contract (its base URL or the contract's URL), against dipswitch's own",
      ),
    )
    .addOption(
      new Option('--format <format>', 'how to print it')
        .choices(['text', 'markdown', 'json', 'junit', 'github'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--fail-on <verdict>',
        'exit 1 when a change breaks you (breaks), may break you too (may-break), or never',
      )
        .choices(['breaks', 'may-break', 'never'])
        .default('breaks'),
    )
    .option('--out <file>', 'write the report to this file (standard output without)')
    .addOption(
      new Option('--max-bytes <n>', 'the largest contract or footprint read, in bytes')
        .argParser(wholeNumber(1))
        .default(20 * 1024 * 1024),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'how long a URL has to answer').argParser(wholeNumber(1)).default(10_000),
    )
    .action(async (base: string | undefined, next: string | undefined, f: DiffFlags) =>
      (await import('./changes.js')).diffContracts(base, next, f),
    );
}
