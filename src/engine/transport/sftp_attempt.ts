/**
 * The SFTP transport of the delivery worker: the body (a message composed, or a stored result file:
 * body.ts) uploaded as one file under the URL's path; answered once the file is written.
 */
import type { OutboundOf } from '../../domain/rows.js';
import { DELIVERY_TIMEOUT_MS, outcomeOf, refusedOutcome, type Transport } from './attempt.js';
import { madeBody } from './body.js';
import { OutboundRefused } from './outbound.js';
import { sftpUpload } from './sftp.js';

export const sftpAttempt: Transport<OutboundOf<'sftp'>> = async (_row, spec, attempt, ctx) => {
  try {
    const { body } = await madeBody(spec, ctx);
    const sent = { headers: { 'sftp-file': `${spec.url} ${spec.sftp.filename}` }, body };
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    await sftpUpload({ url: spec.url, ...spec.sftp }, bytes, DELIVERY_TIMEOUT_MS, (host) => ctx.policy.resolve(host));
    return { ...outcomeOf({ ...attempt, status: 200 }, { status: 200, headers: {}, body: '' }), sent };
  } catch (e) {
    if (e instanceof OutboundRefused) return refusedOutcome(attempt, e.message);
    return outcomeOf({ ...attempt, error: (e as Error).message }, null);
  }
};
