// The messages between the server's thread and the stores' database thread (storeWorker.ts,
// storeWorkerPool.ts). Both ends are this repository's own code, started together: the types are
// the contract, and values travel by structured clone (a Date stays a Date).

export interface StoreWorkerData {
  /** the PGlite data directory the thread opens (never opened by anyone else meanwhile) */
  dir: string;
  /** PGlite's shared_buffers, as database.ts sets it for the app's own database */
  sharedBuffers: string;
}

export type ToStoreWorker =
  | { type: 'query'; id: number; sql: string; parameters: unknown[] }
  /** a COPY … FROM '/dev/blob' with its data (copyIn.ts) */
  | { type: 'copy'; id: number; sql: string; data: Uint8Array }
  /** close the database cleanly (a checkpoint), then answer 'closed' */
  | { type: 'close' };

/** A database error's fields that callers read (code 57014, 53400...) and its words. */
export interface WorkerError {
  message: string;
  code?: string | undefined;
  detail?: string | undefined;
  hint?: string | undefined;
  severity?: string | undefined;
  position?: string | undefined;
}

export type FromStoreWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: WorkerError }
  | { type: 'result'; id: number; rows: unknown[]; affectedRows?: number | undefined }
  | { type: 'error'; id: number; error: WorkerError }
  | { type: 'closed' };
