import { Worker } from 'node:worker_threads';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pgUtils from 'pg/lib/utils.js';
import { copyInOf, copyResult, pgliteCopyText } from './copyIn';
import { commandOf, exclusiveSessions } from './pglite-pool';
import type { FromStoreWorker, StoreWorkerData, ToStoreWorker, WorkerError } from './storeWorkerProtocol';

// The embedded stores' database, held by a worker thread (storeWorker.ts) and presented as the pool
// Kysely's PostgresDialect expects. As with the app's own PGlite (pglite-pool.ts) the one session is
// held by one caller at a time; unlike it, a statement runs on the worker's thread, so the server's
// thread goes on answering while it runs, and `interrupt()` can end it: the thread is terminated
// (V8 stops WebAssembly mid-loop within milliseconds), its caller gets a cancelled statement's
// error, and the next statement opens the directory again in a new thread (PostgreSQL's own crash
// recovery replays what was committed). Only tenants' read-only queries are ever interrupted
// (querySession.ts), so nothing half-written is lost. The thread starts on first use and ends after
// `idleMs` without a statement, so an install that does not query its stores keeps no second
// WebAssembly heap.

/** A cancelled statement, as PostgreSQL reports one (57014 query_canceled). */
class StoreStatementEnded extends Error {
  readonly code = '57014';
  constructor(message = 'canceling statement: the store database thread was ended at the statement\'s deadline') {
    super(message);
    this.name = 'StoreStatementEnded';
  }
}

export interface StoreWorkerPool extends PostgresPool {
  /**
   * Ends the statement in flight, if there is one, by ending the thread that runs it; it fails with
   * `reason`, and so does every later statement of the same connection except ROLLBACK. Answers
   * whether a statement was ended.
   */
  interrupt(reason?: Error): boolean;
  /** a thread is up and has opened the directory (one starts if none runs) */
  ready(): Promise<void>;
  /** whether a thread is running now (for tests and the idle measurements) */
  readonly running: boolean;
  /** statements ended by `interrupt()` since the pool opened (what tests can observe of a cut) */
  readonly interruptions: number;
}

interface StoreWorkerPoolOptions extends StoreWorkerData {
  /** the thread ends after this long without a statement; 0 keeps it */
  idleMs: number;
}

/** Under tsx or vitest the worker's entry is TypeScript: the new thread registers tsx before loading it. */
const TYPESCRIPT_BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

function spawn(data: StoreWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./storeWorker.js', import.meta.url), { workerData: data });
  const entry = new URL('./storeWorker.ts', import.meta.url).href;
  return new Worker(TYPESCRIPT_BOOT, { eval: true, workerData: { ...data, entry, tsx: import.meta.resolve('tsx/esm/api') } });
}

function asError(error: WorkerError): Error {
  return Object.assign(new Error(error.message), error);
}

interface Pending {
  resolve(result: { rows: unknown[]; affectedRows?: number | undefined }): void;
  reject(error: Error): void;
}

/** One thread and the statements it owes answers to. */
class StoreThread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private closed: (() => void) | undefined;
  private nextId = 0;
  /** set once the thread is ended or has died: no statement is sent to it again */
  ended = false;

  constructor(data: StoreWorkerData, onExit: (thread: StoreThread) => void) {
    this.worker = spawn(data);
    let started!: () => void;
    let failed!: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
    this.ready.catch(() => undefined);
    this.worker.on('message', (message: FromStoreWorker) => {
      if (message.type === 'ready') started();
      else if (message.type === 'failed') failed(new Error(`The stores' database could not be opened: ${message.error.message}`));
      else if (message.type === 'closed') this.closed?.();
      else {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === 'result') waiting?.resolve(message);
        else waiting?.reject(asError(message.error));
      }
    });
    this.worker.on('error', (error) => failed(error));
    this.exited = new Promise<void>((resolve) =>
      this.worker.once('exit', () => {
        this.ended = true;
        failed(new Error("The stores' database thread ended before it was ready"));
        this.failAll(new Error("The stores' database thread ended unexpectedly"));
        onExit(this);
        resolve();
      }),
    );
  }

  query(sql: string, parameters: readonly unknown[]): Promise<{ rows: unknown[]; affectedRows?: number | undefined }> {
    const id = this.nextId++;
    const copy = copyInOf(parameters);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (copy) this.post({ type: 'copy', id, sql: pgliteCopyText(sql), data: copy.bytes });
      // values become text (or bytes) here as node-postgres would send them; the thread binds them as they are
      else this.post({ type: 'query', id, sql, parameters: parameters.map((value) => pgUtils.prepareValue(value)) });
    });
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  /** Ends the thread at once, whatever it is running. */
  terminate(): Promise<void> {
    this.ended = true;
    void this.worker.terminate();
    return this.exited;
  }

  /** Closes the database cleanly (its checkpoint), then the thread; ends it anyway after 10 s. */
  async close(): Promise<void> {
    if (this.ended) return this.exited;
    this.ended = true;
    const closed = new Promise<void>((resolve) => (this.closed = resolve));
    this.post({ type: 'close' });
    const timer = setTimeout(() => void this.worker.terminate(), 10_000);
    await Promise.race([closed, this.exited]);
    clearTimeout(timer);
    await this.worker.terminate();
    return this.exited;
  }

  private post(message: ToStoreWorker): void {
    this.worker.postMessage(message);
  }
}

/** A connection of the pool: the session while held, and whether its thread was ended under it. */
interface Holder {
  thread: StoreThread | undefined;
  broken: Error | undefined;
}

export function storeWorkerPool(options: StoreWorkerPoolOptions): StoreWorkerPool {
  const acquire = exclusiveSessions();
  const data: StoreWorkerData = { dir: options.dir, sharedBuffers: options.sharedBuffers };
  let thread: StoreThread | undefined;
  /** the last thread's exit: one data directory is opened by one instance at a time */
  let previousExit: Promise<void> = Promise.resolve();
  let holder: Holder | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  /** set by end(): no thread is started again */
  let ending = false;
  let interruptions = 0;

  const forget = (ended: StoreThread) => {
    if (thread === ended) thread = undefined;
    // a connection between two statements when its thread died: its transaction is gone with it
    if (holder?.thread === ended) holder.broken ??= new Error("The stores' database thread ended unexpectedly");
  };

  const current = async (): Promise<StoreThread> => {
    if (!thread || thread.ended) {
      await previousExit;
      if (!thread || thread.ended) {
        const started = new StoreThread(data, forget);
        previousExit = started.exited;
        thread = started;
      }
    }
    const running = thread;
    await running.ready;
    return running;
  };

  const closeThread = async () => {
    const running = thread;
    thread = undefined;
    if (running) await running.close();
  };

  const whenIdle = () => {
    clearTimeout(idleTimer);
    if (options.idleMs <= 0) return;
    idleTimer = setTimeout(() => {
      void acquire().then(async (release) => {
        try {
          await closeThread();
        } finally {
          release();
        }
      });
    }, options.idleMs);
    idleTimer.unref();
  };

  return {
    get running() {
      return thread !== undefined && !thread.ended;
    },
    get interruptions() {
      return interruptions;
    },
    async connect(): Promise<PostgresPoolClient> {
      const release = await acquire();
      clearTimeout(idleTimer);
      const mine: Holder = { thread: undefined, broken: undefined };
      holder = mine;
      let released = false;
      const client = {
        async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
          if (mine.broken) {
            // the transaction ended with its thread: rolling it back is already done
            if (/^\s*rollback\b/i.test(sql)) return { command: 'ROLLBACK' as PostgresQueryResult<R>['command'], rowCount: 0, rows: [] };
            throw mine.broken;
          }
          const running = await current();
          if (mine.thread && mine.thread !== running) throw (mine.broken ??= new Error("The stores' database thread ended unexpectedly"));
          mine.thread = running;
          const result = await running.query(sql, parameters);
          if (copyInOf(parameters)) return copyResult(result.affectedRows ?? 0);
          return { command: commandOf(sql) as PostgresQueryResult<R>['command'], rowCount: result.affectedRows ?? result.rows.length, rows: result.rows as R[] };
        },
        release() {
          if (released) return;
          released = true;
          if (holder === mine) holder = undefined;
          release();
          whenIdle();
        },
      };
      return client as PostgresPoolClient;
    },
    async ready(): Promise<void> {
      if (!ending) await current();
    },
    interrupt(reason = new StoreStatementEnded()): boolean {
      const running = holder?.thread;
      if (!holder || !running || running.ended || !running.busy) return false;
      holder.broken = reason;
      interruptions += 1;
      running.failAll(reason);
      // the next caller should not wait for a thread to start (about a second): one starts at once
      void running.terminate().then(() => (ending ? undefined : current().catch(() => undefined)));
      return true;
    },
    async end() {
      ending = true;
      clearTimeout(idleTimer);
      const release = await acquire();
      try {
        await closeThread();
        await previousExit;
      } finally {
        release();
      }
    },
  };
}
