import { parentPort, workerData } from 'node:worker_threads';
import { blobOf } from './copyIn';
import { preparedStatements } from './pglite-pool';
import type { StoreWorkerData, ToStoreWorker, FromStoreWorker, WorkerError } from './storeWorkerProtocol';

// The thread that holds the embedded stores' database (storeWorkerPool.ts). PGlite runs each
// statement to its end on the thread that calls it and cannot be interrupted; here that thread is
// this one, so the server's own thread stays free and ends this one (Worker.terminate) when a
// tenant's statement passes its deadline. Statements arrive one at a time (the pool hands its one
// session to one caller at a time) and are answered in order.

const port = parentPort;
if (!port) throw new Error('storeWorker runs only as a worker thread');
const { dir, sharedBuffers } = workerData as StoreWorkerData;

const post = (message: FromStoreWorker) => port.postMessage(message);

function describe(error: unknown): WorkerError {
  const e = error as Partial<Record<'message' | 'code' | 'detail' | 'hint' | 'severity' | 'position', unknown>>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    message: error instanceof Error ? error.message : String(error),
    code: text(e.code),
    detail: text(e.detail),
    hint: text(e.hint),
    severity: text(e.severity),
    position: text(e.position),
  };
}

try {
  // Loaded here, not at the top: the thread reports a failed start as a message, not as an exception.
  const pglite = await import('@electric-sql/pglite');
  const startParams = [...pglite.PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
  const pg = await pglite.PGlite.create(dir, { startParams });
  const statements = preparedStatements(pg, pglite);
  port.on('message', (message: ToStoreWorker) => {
    if (message.type === 'close') {
      pg.close().then(
        () => post({ type: 'closed' }),
        () => post({ type: 'closed' }),
      );
      return;
    }
    const { id, sql } = message;
    const run =
      message.type === 'copy'
        ? pg.query(sql, [], { blob: blobOf(message.data) })
        : // Migrations and DDL send several statements at once; only the simple protocol (exec) allows that.
          message.parameters.length === 0
          ? statements.exec(sql)
          : statements.query(sql, message.parameters);
    run.then(
      (result) => post({ type: 'result', id, rows: result.rows, affectedRows: result.affectedRows }),
      (error: unknown) => post({ type: 'error', id, error: describe(error) }),
    );
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', error: describe(error) });
}
