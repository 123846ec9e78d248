import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { claimDue, release, savePayload, settle, type OutboxRow } from '../repositories/openLineage';
import { composeEvent } from '../services/openLineage';

// Delivers the OpenLineage outbox (issue 41, item 4) with the spec's HTTP transport: each event
// POSTed as JSON to the configured URL with `Authorization: Bearer <key>`, one request at a time
// and bounded by a timeout, retried with doubling delays up to a number of attempts, then FAILED.
// It runs beside the runner in every process, apart from it: a job's status change only wrote a
// row, so a slow or absent collector never holds a job up. Claims are leases taken with FOR UPDATE
// SKIP LOCKED, so two processes never send the same event; a process that dies mid-send leaves a
// lease that expires, and the event is sent again (at least once, as the transport allows).

interface SenderSettings {
  url: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** how often an idle sender looks for due events */
  intervalMs: number;
  /** the `producer` of every event: this server's API */
  producer: string;
}

export function senderSettings(config: Config, intervalMs = 2_000): SenderSettings {
  return {
    url: config.env.OPENLINEAGE_URL,
    apiKey: config.env.OPENLINEAGE_API_KEY,
    timeoutMs: config.env.OPENLINEAGE_TIMEOUT_MS,
    maxAttempts: config.env.OPENLINEAGE_MAX_ATTEMPTS,
    retryBaseMs: config.env.OPENLINEAGE_RETRY_BASE_MS,
    intervalMs,
    producer: `${config.publicUrl}/api`,
  };
}

const BATCH = 10;
const MAX_DELAY_MS = 3_600_000;

/** The delay before attempt `attempts + 1`, after `attempts` failed ones: base, 2·base, 4·base… up to an hour. */
export const retryDelayMs = (attempts: number, baseMs: number): number => Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));

export class OpenLineageSender {
  private readonly owner = `${os.hostname()}:${process.pid}:${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private stopped = true;
  /** stop() was called: a pass under way ends after its current request */
  private stopping = false;

  constructor(private readonly deps: { db: Db; log: FastifyBaseLogger; settings: SenderSettings }) {}

  start(): void {
    this.stopped = false;
    this.stopping = false;
    this.schedule(0);
  }

  /** No new pass; waits for the one under way to finish its current request (bounded by the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.pass;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.pass = this.sendDue()
        .catch((error: unknown) => {
          this.deps.log.error({ err: error }, 'OpenLineage: a delivery pass failed');
          return 0;
        })
        .then((handled) => this.schedule(handled > 0 ? 0 : this.deps.settings.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  /** One pass: claims due events and settles each; how many it handled. */
  async sendDue(): Promise<number> {
    const { settings } = this.deps;
    const leaseMs = BATCH * (settings.timeoutMs + 5_000);
    const rows = await claimDue(this.deps.db, this.owner, leaseMs, BATCH);
    for (const [index, row] of rows.entries()) {
      // stopping: what this pass has not begun goes back at once, for another process (or the next start)
      if (this.stopping) {
        for (const rest of rows.slice(index)) await release(this.deps.db, rest.id, this.owner);
        break;
      }
      try {
        await this.deliver(row);
      } catch (error) {
        // a database error mid-delivery: the lease expires and the event is taken up again later
        this.deps.log.error({ err: error, event: row.id }, 'OpenLineage: an event could not be delivered');
      }
    }
    return rows.length;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, settings } = this.deps;
    let payload = row.payload;
    if (payload === null) {
      let composed: string | undefined;
      try {
        composed = await composeEvent(db, row, settings.producer);
      } catch (error) {
        // composing again would fail again: the event is given up rather than retried for ever
        this.deps.log.error({ err: error, event: row.id }, 'OpenLineage: an event could not be composed');
        return settle(db, row.id, this.owner, { status: 'FAILED', attempted: false, error: 'The event could not be composed.' });
      }
      if (composed === undefined) return settle(db, row.id, this.owner, { status: 'FAILED', attempted: false, error: 'What this event reports no longer exists.' });
      payload = composed;
      await savePayload(db, row.id, this.owner, payload);
    }
    if (settings.url === undefined) return settle(db, row.id, this.owner, { status: 'UNSENT', attempted: false, error: null });
    const error = await post(settings, payload);
    if (error === undefined) return settle(db, row.id, this.owner, { status: 'SENT', attempted: true });
    const attempts = row.attempts + 1;
    if (attempts >= settings.maxAttempts) {
      this.deps.log.warn({ event: row.id, attempts, error }, 'OpenLineage: an event was given up');
      return settle(db, row.id, this.owner, { status: 'FAILED', attempted: true, error });
    }
    return settle(db, row.id, this.owner, { status: 'PENDING', attempted: true, error, retryAt: new Date(Date.now() + retryDelayMs(attempts, settings.retryBaseMs)) });
  }
}

/** POSTs one event; undefined when the collector accepted it (2xx), else why not. */
async function post(settings: SenderSettings, payload: string): Promise<string | undefined> {
  try {
    const response = await fetch(settings.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: payload,
      redirect: 'error',
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    await response.body?.cancel();
    return response.ok ? undefined : `The collector answered ${response.status}.`;
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return name === 'TimeoutError' ? `The collector did not answer within ${settings.timeoutMs} ms.` : 'The collector could not be reached.';
  }
}
