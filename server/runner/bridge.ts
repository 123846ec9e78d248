import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { catalogStreams } from '../../src/domain/streamSelection';
import { tablePrefixError } from '../../src/domain/tableNamespace';
import type { Db } from '../db/database';
import { storeDbOf, storesApart } from '../db/storeDatabase';
import { recordLoad } from '../repositories/freshness';
import { saveCatalog } from '../repositories/streamCatalogs';
import { storeSchemaName } from '../stores/defaultStore';
import { MAX_BATCH_RECORDS } from '../stores/copyText';
import { copyRecords, prepareTable, type CopyMode } from '../stores/loader';
import { ensureStoreRole } from '../stores/storeRole';
import { requireStoreRoom, storeMaxMb } from '../stores/storeSize';
import { tableShapeOf, type TableShape } from '../stores/tableShape';
import { FrameReader, type Frame } from './bridgeFrames';
import { ownValue } from '../../src/domain/ownValue';

// A job's processes reach the server's database only through this bridge: a Unix socket per
// runner, a secret token per job, and a few operations scoped to that job — its pipeline's
// Singer state, its workspace's default store, and the streams its extractors discover. Loaders
// never get database credentials, and the embedded PGlite (one process only) serves them just as
// PostgreSQL does (decisions.md).

interface BridgeJob {
  jobId: string;
  workspaceId: string;
  pipelineId: string;
  /** a verify job's extractors, each with its configuration's key: whose discovered catalog it may save */
  catalogKeys?: Readonly<Record<string, string>>;
}

interface Session {
  job: BridgeJob;
  /** each stream's table, and how its batches go in (loader.ts' copyRecords) */
  tables: Map<string, { shape: TableShape; mode: CopyMode }>;
}

/** A request line is at most this long (a stream's SCHEMA, a catalog). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** A request's data is at most this long (a batch of rows in COPY's text format). */
const MAX_DATA_BYTES = 64 * 1024 * 1024;
/** What one job's connections together may have sent and not yet had answered before they are read no further. */
const MAX_UNANSWERED_BYTES = 2 * MAX_DATA_BYTES;
/**
 * The first request of a connection, its job's token, is at most this long and has no data: any
 * job's sandbox can reach the socket, and a connection without a token holds nothing more.
 */
const MAX_TOKEN_LINE_BYTES = 4096;
/** A job's open connections (target-store holds one): each may hold a request being read. */
const MAX_CONNECTIONS_PER_JOB = 4;

/** A job's connections, and the bytes they have sent that are not answered yet. */
interface JobTraffic {
  sockets: Set<net.Socket>;
  unanswered: number;
}

export class RunnerBridge {
  readonly socketPath: string;
  private readonly socketDir: string;
  private readonly server: net.Server;
  private readonly tokens = new Map<string, BridgeJob>();
  private readonly traffic = new Map<BridgeJob, JobTraffic>();

  /**
   * @param storeLimitMb STORE_MAX_MB: a load that would take a workspace's store past it is refused
   */
  constructor(
    private readonly db: Db,
    private readonly storeLimitMb: number = storeMaxMb(),
  ) {
    // In a directory others may pass through but not list; the socket itself is open to the
    // sandboxes' outer uids when the server is root (a token per job is what grants anything).
    this.socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-bridge-'));
    fs.chmodSync(this.socketDir, 0o711);
    this.socketPath = path.join(this.socketDir, `${randomBytes(12).toString('hex')}.sock`);
    this.server = net.createServer((socket) => this.serve(socket));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socketPath, () => resolve());
    });
    fs.chmodSync(this.socketPath, process.getuid?.() === 0 ? 0o666 : 0o600);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.socketDir, { recursive: true, force: true });
  }

  /** A token for one job; revoke it when the job ends. */
  grant(job: BridgeJob): string {
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, job);
    return token;
  }

  revoke(token: string): void {
    const job = this.tokens.get(token);
    this.tokens.delete(token);
    if (job) this.traffic.delete(job);
  }

  private serve(socket: net.Socket): void {
    let session: Session | undefined;
    let traffic: JobTraffic | undefined;
    let queue = Promise.resolve();
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      traffic?.sockets.delete(socket);
      if (session && traffic?.sockets.size === 0) this.traffic.delete(session.job);
    });
    const frames = new FrameReader(MAX_TOKEN_LINE_BYTES, 0);
    /** The job's token: the connection is its job's from now on, or ends. */
    const authenticate = (request: Record<string, unknown>): unknown => {
      const job = typeof request.token === 'string' ? this.tokens.get(request.token) : undefined;
      if (!job) throw new Error('unknown or expired job token');
      const jobTraffic = this.traffic.get(job) ?? { sockets: new Set(), unanswered: 0 };
      if (jobTraffic.sockets.size >= MAX_CONNECTIONS_PER_JOB) throw new Error(`a job may hold at most ${MAX_CONNECTIONS_PER_JOB} connections to the runner bridge`);
      jobTraffic.sockets.add(socket);
      this.traffic.set(job, jobTraffic);
      traffic = jobTraffic;
      session = { job, tables: new Map() };
      frames.setLimits(MAX_LINE_BYTES, MAX_DATA_BYTES);
      return { jobId: job.jobId };
    };
    const answer = ({ request, data }: Frame) => {
      // bytes read but not yet answered, counted per job: past the limit all its connections are
      // read no further, so a sender that never waits (or opens more connections) is held back
      const size = data?.length ?? 0;
      const counted = traffic;
      if (counted) {
        counted.unanswered += size;
        if (counted.unanswered > MAX_UNANSWERED_BYTES) for (const s of counted.sockets) s.pause();
      }
      queue = queue.then(async () => {
        let reply: unknown;
        try {
          if (!request) throw new Error('a request is a JSON object on one line');
          reply = { ok: true, result: session ? await this.handle(session, request, data) : authenticate(request) };
        } catch (error) {
          reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
        // a connection whose first request is not an accepted token is answered and ended
        if (!socket.destroyed) {
          if (session) socket.write(`${JSON.stringify(reply)}\n`);
          else socket.end(`${JSON.stringify(reply)}\n`);
        }
        if (counted) {
          counted.unanswered -= size;
          if (counted.unanswered <= MAX_UNANSWERED_BYTES) for (const s of counted.sockets) s.resume();
        }
      });
    };
    socket.on('data', (chunk: Buffer) => {
      const read = frames.push(chunk);
      for (const frame of read.frames) answer(frame);
      // the framing is lost: answered after what came before, then the connection ends
      if (read.error) {
        const error = read.error;
        queue = queue.then(() => void socket.end(`${JSON.stringify({ ok: false, error })}\n`));
      }
    });
  }

  private async handle(session: Session, request: Record<string, unknown>, data: Buffer | undefined): Promise<unknown> {
    const { job } = session;
    if (![...this.tokens.values()].includes(job)) throw new Error('the job has ended');
    switch (request.op) {
      case 'state.get': {
        const stateId = requireText(request.stateId, 'stateId');
        const row = await this.db.selectFrom('pipeline_states').select('value').where('pipeline_id', '=', job.pipelineId).where('state_id', '=', stateId).executeTakeFirst();
        return row?.value ?? null;
      }
      case 'state.set': {
        const stateId = requireText(request.stateId, 'stateId');
        if (typeof request.value !== 'object' || request.value === null) throw new Error('state value must be an object');
        const value = JSON.stringify(request.value);
        await this.db
          .insertInto('pipeline_states')
          .values({ pipeline_id: job.pipelineId, state_id: stateId, value, updated: new Date() })
          .onConflict((oc) => oc.columns(['pipeline_id', 'state_id']).doUpdateSet({ value, updated: new Date() }))
          .execute();
        return true;
      }
      case 'store.prepare': {
        const stream = requireText(request.stream, 'stream');
        const prefix = request.tablePrefix ?? '';
        const invalid = tablePrefixError(prefix);
        if (invalid) throw new Error(`tablePrefix ${invalid}`);
        const shape = tableShapeOf(stream, request.schema, Array.isArray(request.keyProperties) ? request.keyProperties : [], prefix as string);
        // the schema and the role that reads it, made here on the store's first use (defaultStore.ts)
        await ensureStoreRole(this.db, job.workspaceId);
        await prepareTable(storeDbOf(this.db), storeSchemaName(job.workspaceId), shape);
        session.tables.set(stream, { shape, mode: 'insert' });
        // the loader writes its rows in this shape's columns and order (copyText.ts)
        return { table: shape.table, shape };
      }
      case 'store.copy': {
        // a batch of the stream's rows in COPY's text format, at most one per key (copyText.ts); `records` is how many the tap sent for them
        const stream = requireText(request.stream, 'stream');
        const table = session.tables.get(stream);
        if (!table) throw new Error(`no SCHEMA for stream ${stream} before its records`);
        if (!data) throw new Error('store.copy takes its rows as bytes after its line');
        const records = request.records;
        // the count is the job's own word, so it is held to what one batch can stand for: a stranger's
        // loader cannot inflate the job's rows past what its batches could carry
        if (typeof records !== 'number' || !Number.isSafeInteger(records) || records < 0 || records > MAX_BATCH_RECORDS) throw new Error(`records must be a count of at most ${MAX_BATCH_RECORDS}`);
        const { shape } = table;
        // the batch's text stands for what it will take on disk: a refused batch leaves the store as it was
        await requireStoreRoom(this.db, job.workspaceId, this.storeLimitMb, data.length);
        const load = async (store: Db) => {
          const copied = await copyRecords(store, storeSchemaName(job.workspaceId), shape, data, table.mode);
          table.mode = copied.mode;
          // what the tap sent, never fewer than the rows written (duplicates of a key were one row)
          return Math.max(records, copied.rows);
        };
        const account = async (trx: Db, loaded: number) => {
          // the total and the stream's count in one statement: they always agree
          await trx
            .updateTable('jobs')
            .set({
              rows_loaded: sql<number>`rows_loaded + ${loaded}`,
              rows_by_stream: sql<string>`rows_by_stream || jsonb_build_object(${stream}::text, coalesce((rows_by_stream ->> ${stream}::text)::bigint, 0) + ${loaded})`,
            })
            .where('id', '=', job.jobId)
            .execute();
          // which job last loaded this table: a dataset reading it reports its freshness from this
          await recordLoad(trx, { workspaceId: job.workspaceId, table: shape.table, jobId: job.jobId, pipelineId: job.pipelineId, rows: loaded });
        };
        let rows: number;
        if (storesApart(this.db)) {
          // Two databases (PGlite): the rows commit in the store, then their count in the app's. Never
          // the other way round, with the app's one session held while the stores' thread may still be
          // busy with a tenant's query until its deadline.
          rows = await storeDbOf(this.db).transaction().execute(load);
          await this.db.transaction().execute((trx) => account(trx, rows));
        } else {
          rows = await this.db.transaction().execute(async (trx) => {
            const loaded = await load(trx);
            await account(trx, loaded);
            return loaded;
          });
        }
        return { rows };
      }
      case 'catalog.save': {
        // what an extractor's discovery listed, kept for the pipeline editor (pipelineStreams.ts)
        const component = requireText(request.component, 'component');
        const key = job.catalogKeys && ownValue(job.catalogKeys, component);
        if (key === undefined) throw new Error(`this job does not discover the streams of ${component}`);
        const read = catalogStreams(request.catalog);
        if (!read.ok) throw new Error(read.message);
        await saveCatalog(this.db, { workspaceId: job.workspaceId, key, streams: read.streams, jobId: job.jobId });
        return { streams: read.streams.length };
      }
      default:
        throw new Error(`unknown operation ${String(request.op)}`);
    }
  }
}

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1000) throw new Error(`${name} must be a non-empty text`);
  return value;
}
