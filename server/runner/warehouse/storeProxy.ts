import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { md5Answer, scramClient, type ScramClient } from './scram';
import { readFirstMessage } from './startupMessage';
import { MessageReader, askCleartextPassword, authenticationOk, errorText, fatalError, message, passwordMessage, saslInitialResponse, saslResponse, startupMessage } from './wire';

// The one way a job reaches PostgreSQL (issue 37): a Unix socket of its own, mounted in its sandbox
// as /run/store/.s.PGSQL.5432 (libpq's `host=/run/store`), with no change to the network policy. The
// runner process reads the client's startup message and opens a session upstream only for the
// store's database as the workspace's loading role; anything else gets an ErrorResponse. The job
// proves itself with a per-job token (sent as the password it was given); the proxy then logs in
// upstream with the role's real password, which never enters the sandbox. After the login it only
// copies bytes. Every socket ends with the job (`close`).

/** Where the job sees the socket's directory, and the socket's name in it (port 5432 for libpq). */
export const SANDBOX_STORE_DIR = '/run/store';
export const STORE_PORT = 5432;
const STORE_SOCKET_NAME = `.s.PGSQL.${STORE_PORT}`;

/** the client has this long to log in; the upstream as long to let us in (a session then lasts as long as it likes) */
const LOGIN_TIMEOUT_MS = 15_000;
/** two encryption requests (libpq's GSSENC then SSL) are all a real client sends */
const MAX_NEGOTIATIONS = 2;
const MAX_AUTH_MESSAGE_BYTES = 64 * 1024;
/** what a session may ask for besides its user and database; `replication`, `options` and protocol extensions are refused */
const PASSED_PARAMETERS = new Set(['application_name', 'client_encoding', 'DateStyle', 'TimeZone', 'extra_float_digits']);

export interface StoreUpstream {
  /** a host name or address, or a Unix socket directory (starting with /) */
  host: string;
  port: number;
}

interface StoreProxyOptions {
  upstream: StoreUpstream;
  database: string;
  role: string;
  /** the role's password: used upstream, never sent to the job */
  password: string;
  /** what the job must send as its password */
  token: string;
  /** the server's log: why a session was refused (never a password) */
  log?: (line: string) => void;
  /** LOGIN_TIMEOUT_MS unless given (the tests shorten it) */
  loginTimeoutMs?: number;
}

export class StoreProxy {
  readonly dir: string;
  readonly socketPath: string;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** the job's side of each session (told why when the proxy shuts), with its upstream once there is one */
  private readonly clients = new Map<net.Socket, net.Socket | undefined>();
  private readonly tokenDigest: Buffer;
  private closed = false;
  /** once set, every session is ended and every new one refused with this text */
  private shutWith: string | undefined;

  private constructor(private readonly options: StoreProxyOptions) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-store-'));
    // others may pass (a root server runs each workspace's sandbox under a uid of its own), not list
    fs.chmodSync(this.dir, 0o711);
    this.socketPath = path.join(this.dir, STORE_SOCKET_NAME);
    this.tokenDigest = digest(options.token);
    this.server = net.createServer((socket) => this.serve(socket));
  }

  static async open(options: StoreProxyOptions): Promise<StoreProxy> {
    const proxy = new StoreProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(proxy.socketPath, () => resolve());
    });
    fs.chmodSync(proxy.socketPath, process.getuid?.() === 0 ? 0o666 : 0o600);
    return proxy;
  }

  /** Ends every session and removes the socket: the job is over. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closing;
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Ends every session with a FATAL error carrying `text` (SQLSTATE 53100, disk full) and refuses
   * new ones the same way, the socket left in place so the job's loaders say why they stopped.
   * PostgreSQL rolls back what an ended session had not committed.
   */
  shut(text: string): void {
    if (this.shutWith !== undefined || this.closed) return;
    this.shutWith = text;
    for (const [client, upstream] of this.clients) {
      if (upstream) {
        // nothing more either way, and the upstream's end must not cut the client before it hears why
        client.unpipe(upstream);
        upstream.unpipe(client);
        upstream.removeAllListeners('close');
        upstream.destroy();
      }
      client.end(fatalError('53100', text));
    }
  }

  /** sessions open now (the tests watch them end) */
  get openSockets(): number {
    return this.sockets.size;
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (this.closed) socket.destroy();
  }

  private serve(client: net.Socket): void {
    this.track(client);
    this.clients.set(client, undefined);
    client.once('close', () => this.clients.delete(client));
    const { role, database } = this.options;
    let pending: Buffer = Buffer.alloc(0);
    let phase: 'first' | 'password' | 'upstream' = 'first';
    let negotiations = 0;
    let session: Map<string, string> | undefined;
    const passwordReader = new MessageReader(1024);
    const refuse = (sqlState: string, text: string) => {
      this.options.log?.(`store proxy: refused a session: ${text}`);
      client.end(fatalError(sqlState, text));
      client.removeAllListeners('data');
    };
    const timer = setTimeout(() => client.destroy(), this.options.loginTimeoutMs ?? LOGIN_TIMEOUT_MS);
    timer.unref();
    client.once('close', () => clearTimeout(timer));

    const onData = (chunk: Buffer) => {
      // shut: the client has heard why, and nothing it sends goes anywhere
      if (this.shutWith !== undefined && phase !== 'first') return;
      if (phase === 'upstream') {
        // pipelined bytes before the upstream let us in: kept for it
        pending = Buffer.concat([pending, chunk]);
        if (pending.length > MAX_AUTH_MESSAGE_BYTES) client.destroy();
        return;
      }
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (phase === 'first') {
        const first = readFirstMessage(pending);
        if (first.kind === 'incomplete') return;
        if (first.kind === 'invalid') return refuse('08P01', `invalid startup packet: ${first.reason}`);
        if (first.kind === 'cancel') {
          // a cancel would name an upstream backend's key; the proxy sends none anywhere
          client.destroy();
          return;
        }
        if (first.kind === 'ssl' || first.kind === 'gssenc') {
          if (++negotiations > MAX_NEGOTIATIONS) return refuse('08P01', 'too many encryption requests');
          // a Unix socket inside the job's own sandbox: nothing to encrypt
          client.write('N');
          pending = pending.subarray(first.size);
          continue;
        }
        const parameters = first.parameters;
        const user = parameters.get('user');
        const wanted = parameters.get('database') ?? user;
        if (this.shutWith !== undefined) return refuse('53100', this.shutWith);
        if (user !== role) return refuse('28000', `this socket serves the workspace's store as role "${role}" only`);
        if (wanted !== database) return refuse('3D000', `this socket serves database "${database}" only`);
        const other = [...parameters.keys()].filter((k) => k !== 'user' && k !== 'database' && !PASSED_PARAMETERS.has(k));
        if (other.length > 0) return refuse('08P01', `startup parameters not allowed here: ${other.slice(0, 5).join(', ')}`);
        session = new Map([...parameters].filter(([k]) => PASSED_PARAMETERS.has(k)));
        pending = pending.subarray(first.size);
        phase = 'password';
        client.write(askCleartextPassword());
      }
      if (phase === 'password') {
        let answer;
        try {
          passwordReader.push(pending);
          pending = Buffer.alloc(0);
          answer = passwordReader.next();
        } catch {
          return refuse('08P01', 'invalid password message');
        }
        if (!answer) return;
        if (answer.type !== 'p') return refuse('08P01', 'expected a password message');
        const end = answer.body.indexOf(0);
        const given = answer.body.subarray(0, end < 0 ? answer.body.length : end).toString('utf8');
        if (!timingSafeEqual(digest(given), this.tokenDigest)) return refuse('28P01', `password authentication failed for user "${role}"`);
        phase = 'upstream';
        pending = passwordReader.rest();
        this.connectUpstream(client, session ?? new Map<string, string>(), () => {
          // logged in: the login's deadline is over, the session lasts as long as the job
          clearTimeout(timer);
          const early = pending;
          pending = Buffer.alloc(0);
          client.removeListener('data', onData);
          return early;
        });
      }
    };
    client.on('data', onData);
  }

  /** Logs in upstream as the role; on success the two sockets are joined, else the client hears why. */
  private connectUpstream(client: net.Socket, parameters: Map<string, string>, takeEarly: () => Buffer): void {
    const { upstream, role, database, password } = this.options;
    const socket = upstream.host.startsWith('/') ? net.connect({ path: path.join(upstream.host, `.s.PGSQL.${upstream.port}`) }) : net.connect({ host: upstream.host, port: upstream.port });
    this.track(socket);
    if (this.clients.has(client)) this.clients.set(client, socket);
    socket.setTimeout(this.options.loginTimeoutMs ?? LOGIN_TIMEOUT_MS, () => socket.destroy());
    const reader = new MessageReader(MAX_AUTH_MESSAGE_BYTES);
    let scram: ScramClient | undefined;
    let joined = false;
    const fail = (text: string, forward?: Buffer) => {
      this.options.log?.(`store proxy: the upstream login failed: ${text}`);
      client.end(forward ?? fatalError('08006', 'the store is not reachable just now'));
      socket.destroy();
    };
    socket.once('close', () => {
      if (!joined) fail('the upstream closed the connection');
      client.destroy();
    });
    client.once('close', () => socket.destroy());
    socket.on('connect', () => socket.write(startupMessage(new Map([['user', role], ['database', database], ...parameters]))));
    socket.on('data', (chunk: Buffer) => {
      if (joined) return;
      try {
        reader.push(chunk);
        for (let m = reader.next(); m; m = reader.next()) {
          if (m.type === 'E') return fail(errorText(m.body), message('E', m.body));
          if (m.type !== 'R') continue; // a NoticeResponse before the login: nothing for the client
          const code = m.body.readInt32BE(0);
          if (code === 0) {
            joined = true;
            socket.setTimeout(0);
            socket.removeAllListeners('data');
            client.write(authenticationOk());
            const rest = reader.rest();
            if (rest.length > 0) client.write(rest);
            const early = takeEarly();
            if (early.length > 0) socket.write(early);
            client.pipe(socket);
            socket.pipe(client);
            return;
          }
          if (code === 3) socket.write(passwordMessage(password));
          else if (code === 5) socket.write(passwordMessage(md5Answer(role, password, m.body.subarray(4, 8))));
          else if (code === 10) {
            const mechanisms = m.body.subarray(4).toString('utf8').split('\0');
            if (!mechanisms.includes('SCRAM-SHA-256')) return fail(`no supported SASL mechanism among ${mechanisms.join(' ')}`);
            scram = scramClient(password);
            socket.write(saslInitialResponse('SCRAM-SHA-256', scram.first));
          } else if (code === 11 && scram) socket.write(saslResponse(scram.final(m.body.subarray(4).toString('utf8'))));
          else if (code === 12 && scram) scram.verify(m.body.subarray(4).toString('utf8'));
          else return fail(`authentication request ${code} is not supported`);
        }
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    });
  }
}

/** compared as digests, so the comparison takes the same time whatever the length given */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
