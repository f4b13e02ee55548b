/** Options the commands share: listening, logging, the config file. */
import { Command, Option } from 'commander';
import type { Logger } from '../deps.js';
import { CONFIG_FILE } from './stop.js';
import { LOG_LEVELS, pinoLogger, type LogLevel } from './log.js';
import { wholeNumber } from './values.js';
import { MESSAGE_ID_FORMS } from '../domain/smpp_addresses.js';

// ---- options shared by the commands

/** A flag of `serve` and its environment variable: every flag has one (a container sets what a command line would). */
export const opt = (flags: string, description: string, env: string) => new Option(flags, description).env(env);

export function listenOptions(cmd: Command, defaultPort: number): Command {
  return cmd
    .addOption(
      opt('-p, --port <n>', 'port to listen on (0: any free one)', 'PORT')
        .argParser(wholeNumber(0, 65535))
        .default(defaultPort),
    )
    .addOption(opt('--host <address>', 'address to listen on', 'HOST').default('127.0.0.1'));
}

export function logOptions(cmd: Command): Command {
  return cmd
    .addOption(
      opt('--log-level <level>', 'the least a log line must be to be written', 'LOG_LEVEL')
        .choices(LOG_LEVELS)
        .default('info'),
    )
    .addOption(opt('-q, --quiet', 'warnings and errors only (as --log-level warn)', 'QUIET'))
    .addOption(
      opt(
        '--config <file>',
        `a JSON file of defaults for these flags (./${CONFIG_FILE} when present)`,
        'DIPSWITCH_CONFIG',
      ),
    );
}

export function loggerOf(opts: { logLevel: LogLevel; quiet?: boolean }): Logger {
  return pinoLogger(opts.quiet ? 'warn' : opts.logLevel);
}

/** The launch contract's flags (docs/clients.md): where it tells it serves, what it ends with. */
export function launchOptions(cmd: Command): void {
  cmd
    .addOption(
      opt(
        '--ready-file <path>',
        'once listening, write the URL, SMPP port, pid and version there as JSON (a launcher reads it)',
        'READY_FILE',
      ),
    )
    .addOption(
      opt(
        '--exit-with-stdin',
        'stop when standard input closes (the process that started it is gone)',
        'EXIT_WITH_STDIN',
      ),
    )
    .addOption(
      opt('--parent-pid <pid>', 'stop when the process with this id is gone', 'PARENT_PID').argParser(wholeNumber(1)),
    );
}

/** The SMPP server's flags. */
export function smppOptions(cmd: Command): void {
  cmd
    .addOption(
      opt('--smpp-port <n>', 'port of the SMPP server, on --host (0: any free one)', 'SMPP_PORT')
        .argParser(wholeNumber(0, 65535))
        .default(2775),
    )
    .addOption(opt('--no-smpp', 'no SMPP server', 'NO_SMPP'))
    .addOption(
      opt('--smpp-message-ids <form>', 'message ids of submit_sm_resp and receipts', 'SMPP_MESSAGE_IDS')
        .choices([...MESSAGE_ID_FORMS])
        .default('ulid'),
    );
}
