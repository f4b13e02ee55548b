/**
 * Outbound is a union, one variant per transport, and the delivery worker's registry is exhaustive:
 * `npm run typecheck` checks this file, and each `@ts-expect-error` below fails it if the line under
 * it compiles (a transport left out, a transport given another's variant, a field of another variant).
 */
import { describe, expect, it } from 'vitest';
import type { Transports } from '../../src/engine/deliveries.js';
import { chatAttempt } from '../../src/engine/transport/chat_attempt.js';
import { httpAttempt } from '../../src/engine/transport/http_attempt.js';
import { mm4Attempt } from '../../src/engine/transport/mm4_attempt.js';
import { sftpAttempt } from '../../src/engine/transport/sftp_attempt.js';
import { smppAttempt } from '../../src/engine/transport/smpp_attempt.js';
import { transportOf, type OutboundSpec } from '../../src/domain/rows.js';

const all: Transports = { http: httpAttempt, sftp: sftpAttempt, smpp: smppAttempt, mm4: mm4Attempt, chat: chatAttempt };

// @ts-expect-error: a registry without the chat transport
export const missing: Transports = { http: httpAttempt, sftp: sftpAttempt, smpp: smppAttempt, mm4: mm4Attempt };

// @ts-expect-error: the SMPP transport cannot take the HTTP variant
export const crossed: Transports = { ...all, http: smppAttempt };

// @ts-expect-error: an SFTP upload needs its login and file name
export const sftpWithoutLogin: OutboundSpec = {
  method: 'SFTP',
  url: 'sftp://127.0.0.1/in',
  headers: {},
  body: '',
};

export const httpWithSmpp: OutboundSpec = {
  method: 'POST',
  url: 'http://127.0.0.1/',
  headers: {},
  body: '',
  // @ts-expect-error: an HTTP request carries no SMPP message
  smpp: { key_id: '', system_id: '', source_addr: '', destination_addr: '', text: '' },
};

describe('outbound, one variant per transport', () => {
  it('each method names its transport, and the registry has one for each', () => {
    const methods: OutboundSpec['method'][] = ['GET', 'POST', 'PUT', 'SFTP', 'SMPP', 'MM4', 'CHAT'];
    expect(methods.map((method) => transportOf({ method }))).toEqual([
      'http',
      'http',
      'http',
      'sftp',
      'smpp',
      'mm4',
      'chat',
    ]);
    expect(Object.keys(all).sort()).toEqual(['chat', 'http', 'mm4', 'sftp', 'smpp']);
  });
});
