/**
 * Shadowing (`dipswitch proxy --upstream URL --shadow`): each call the client makes to the real
 * service is made again, after the client has its answer, to an in-process dipswitch whose state
 * follows along; the ids the real service issued are mapped to dipswitch's, and each pair of answers
 * goes to the parity report (parity.ts). The shadow acts as the Demo admin, whatever key the client used.
 */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../deps.js';
import { backend } from '../http/backend.js';
import { buildServer, listen } from '../server.js';
import type { DbData } from '../store/schema.js';
import type { Runtime } from '../runtime.js';
import { Parity } from './parity.js';
import { parseJson } from '../domain/json.js';

/** Calls waiting for the shadow at most; past this, calls are counted as not compared (docs/running.md, "Reference: bounds"). */
export const SHADOW_BACKLOG = 1_000;
/** Ids of the real service mapped to dipswitch's, at most; later ones are not mapped. */
export const SHADOW_IDS = 100_000;

export interface ShadowCall {
  method: string;
  /** The path and query the client sent. */
  path: string;
  contentType?: string;
  body: Buffer;
  real: { status: number; body: unknown };
}

/** A token that may be an id or a cursor: uuids, ulids, base64url cursors. */
const TOKEN = /[A-Za-z0-9_-]{20,}/g;

// an answer that is not JSON is compared as none
const parsed = (text: string): unknown => (text ? parseJson(text) : undefined);

export class Shadow {
  readonly parity = new Parity();
  private readonly ids = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private full = false;

  private constructor(
    private readonly base: string,
    private readonly server: Server,
    private readonly runtime: Runtime,
    private readonly logger: Logger,
  ) {}

  /** A fresh in-process dipswitch (memory, real clock) on loopback, from the fixtures given or the defaults. */
  static async start(opts: { logger: Logger; fixtures?: () => DbData; seed?: number }): Promise<Shadow> {
    const { app, runtime } = await buildServer({
      store: { memory: true },
      logger: opts.logger,
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
    });
    // the shadow's own address serves its dashboard, whose Parity tab reads the report there
    const outer = Object.assign(express(), { contractViolations: app.contractViolations, core: app.core });
    const server = await listen(outer, 0, '127.0.0.1');
    const shadow = new Shadow(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      server,
      runtime,
      opts.logger,
    );
    outer.disable('x-powered-by');
    outer.get('/__proxy/parity', (_req, res) => void res.json(shadow.parity.report()));
    outer.use(app);
    return shadow;
  }

  /** The shadow dipswitch's address, on loopback: its dashboard (with the Parity tab) and control API. */
  get url(): string {
    return this.base;
  }

  /** Queues a call the client made; its answer has already gone back to the client. */
  follow(call: ShadowCall): void {
    if (this.pending >= SHADOW_BACKLOG) {
      this.parity.skip();
      return;
    }
    this.pending++;
    this.queue = this.queue
      .then(() => this.replay(call))
      .catch((e: Error) => {
        this.parity.skip();
        this.logger.warn(`[shadow] ${call.method} ${call.path}: ${e.message}`);
      })
      .finally(() => this.pending--);
  }

  /** Resolves once every queued call has been compared. */
  idle(): Promise<void> {
    return this.queue;
  }

  async close(): Promise<void> {
    await this.idle();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
    await this.runtime.close();
  }

  /** The text with every id (or cursor) of the real service replaced by dipswitch's. */
  private translate(text: string): string {
    return text.replace(TOKEN, (t) => this.ids.get(t) ?? t);
  }

  private async replay(call: ShadowCall): Promise<void> {
    const url = new URL(call.path, 'http://shadow');
    const api = await backend('openapi');
    const operation = api.router.matchOperation({ method: call.method.toLowerCase(), path: url.pathname, headers: {} });
    // the shadow calls as Demo's admin: an answer about the client's own key (401, 403) has nothing to compare with
    if (!operation?.operationId || call.real.status === 401 || call.real.status === 403) {
      this.parity.skip();
      return;
    }
    const json = /json/i.test(call.contentType ?? '');
    const res = await fetch(this.base + this.translate(call.path), {
      method: call.method,
      headers: {
        authorization: 'Bearer demo-admin-key',
        ...(call.contentType ? { 'content-type': call.contentType } : {}),
      },
      body: call.body.length
        ? json
          ? this.translate(call.body.toString('utf8'))
          : new Uint8Array(call.body)
        : undefined,
    });
    const answer = { status: res.status, body: parsed(await res.text()) };
    this.learn(call.real.body, answer.body);
    this.parity.compare(operation.operationId, call.real, answer);
  }

  /** Pairs the ids (and cursors) at the same places of the two answers. */
  private learn(real: unknown, mine: unknown, key = ''): void {
    if (typeof real === 'string' && typeof mine === 'string') {
      const idLike = key === 'id' || key.endsWith('_id') || key === 'first' || key === 'last';
      if (!idLike || real === mine || this.ids.has(real)) return;
      if (this.ids.size >= SHADOW_IDS) {
        if (!this.full) this.logger.warn(`[shadow] ${SHADOW_IDS} ids mapped: later ones are not`);
        this.full = true;
        return;
      }
      this.ids.set(real, mine);
      return;
    }
    if (!real || !mine || typeof real !== 'object' || typeof mine !== 'object') return;
    if (Array.isArray(real) && Array.isArray(mine)) real.forEach((r, i) => this.learn(r, mine[i], key));
    else
      for (const [k, v] of Object.entries(real as Record<string, unknown>))
        this.learn(v, (mine as Record<string, unknown>)[k], k);
  }
}
