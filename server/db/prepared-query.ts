import type { PostgresQueryResult } from 'kysely';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

// node-postgres's Query describes the portal on every execution and turns each RowDescription into
// parsers and an empty row again (its `addFields` was the costliest function of our own process in
// the workspace list's profile, ahead of the HTTP code), and copies the query's config object
// property by property on the way in. A prepared statement's columns never change on its
// connection (if the table changes, PostgreSQL refuses the cached plan with 0A000 and the pool
// drops the connection, db/prepared-pool.ts), so this query describes a statement once per
// connection and keeps what it learnt beside the connection. It implements node-postgres's
// documented Submittable interface, the one pg-cursor and pg-query-stream use.

type Parser = (text: string) => unknown;

/** How a statement's rows are read: column names, their parsers, and an object with every column (null) to copy for each row. */
interface RowShape {
  names: readonly string[];
  parsers: readonly Parser[];
  empty: Readonly<Record<string, null>>;
}

/** A statement that answers no rows (an INSERT without RETURNING): nothing to describe. */
const NO_ROWS: RowShape = { names: [], parsers: [], empty: {} };

/**
 * The part of node-postgres's connection a query drives, as node-postgres 8 has it (its published
 * types still carry an older signature): the protocol's messages and the client's record of the
 * statements parsed on this connection.
 */
interface WireConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(message: { name: string; text: string }): void;
  bind(message: { statement: string; values: readonly (string | Buffer | null)[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/** Row shapes by statement name, per connection: a statement is known only on the connection that prepared it. */
const shapesByConnection = new WeakMap<WireConnection, Map<string, RowShape>>();

function shapesOf(connection: WireConnection): Map<string, RowShape> {
  let shapes = shapesByConnection.get(connection);
  if (!shapes) {
    shapes = new Map();
    shapesByConnection.set(connection, shapes);
  }
  return shapes;
}

function shapeOf(fields: readonly { name: string; dataTypeID: number }[]): RowShape {
  // Built as node-postgres builds its rows: the column names become own properties of a plain
  // object (a column named __proto__ stays a property), later duplicates winning.
  const empty: Record<string, null> = Object.create(null) as Record<string, null>;
  for (const field of fields) empty[field.name] = null;
  return { names: fields.map((field) => field.name), parsers: fields.map((field) => pg.types.getTypeParser(field.dataTypeID, 'text') as Parser), empty: { ...empty } };
}

const COMMAND = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/** What a query answers: as node-postgres's result, for the fields Kysely reads. */
type PreparedResult = PostgresQueryResult<Record<string, unknown>>;

interface Message {
  fields: { name: string; dataTypeID: number }[];
}

/** One execution of the named statement `name` (text `text`) with `values`, as a node-postgres Submittable. */
class PreparedQuery implements pg.Submittable {
  private connection: WireConnection | undefined;
  private shape: RowShape | undefined;
  private described = false;
  private readonly rows: Record<string, unknown>[] = [];
  private command: PreparedResult['command'] = 'SELECT';
  private rowCount = 0;
  private failure: Error | undefined;

  constructor(
    // `name` and `text` are read by the client too: it records the statement as parsed on its connection
    readonly name: string,
    readonly text: string,
    private readonly values: readonly (string | Buffer | null)[],
    private readonly callback: (error: Error | null, result?: PreparedResult) => void,
  ) {}

  submit(client: pg.Connection): void {
    const connection = client as unknown as WireConnection;
    this.connection = connection;
    this.shape = shapesOf(connection).get(this.name);
    // one write for all the messages, as node-postgres's own query does
    connection.stream.cork?.();
    try {
      if (connection.parsedStatements[this.name] === undefined && connection.submittedNamedStatements[this.name] === undefined) {
        connection.parse({ name: this.name, text: this.text });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ statement: this.name, values: this.values });
      if (!this.shape) {
        connection.describe({ type: 'P', name: '' });
        this.described = true;
      }
      connection.execute({ portal: '' });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  handleRowDescription(message: Message): void {
    this.shape = shapeOf(message.fields);
    if (this.connection) shapesOf(this.connection).set(this.name, this.shape);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const shape = this.shape;
    if (this.failure !== undefined) return;
    if (!shape) {
      this.failure = new Error(`rows of statement ${this.name} arrived undescribed`);
      return;
    }
    const row: Record<string, unknown> = { ...shape.empty };
    const fields = message.fields;
    try {
      for (let i = 0; i < fields.length; i++) {
        const text = fields[i];
        row[shape.names[i]!] = text === null || text === undefined ? null : shape.parsers[i]!(text);
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(`a column of statement ${this.name} could not be read`, { cause: error });
      return;
    }
    this.rows.push(row);
  }

  handleCommandComplete(message: { text: string }): void {
    const match = COMMAND.exec(message.text);
    if (match) {
      this.command = match[1] as PreparedResult['command'];
      const count = match[3] ?? match[2];
      this.rowCount = count === undefined ? 0 : Number.parseInt(count, 10);
    }
    // described, and no RowDescription came: the statement answers no rows
    if (this.described && !this.shape && this.connection) shapesOf(this.connection).set(this.name, NO_ROWS);
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as WireConnection).sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleError(error: Error): void {
    // what this connection knew of the statement may be what failed: described afresh next time
    if (this.connection) shapesOf(this.connection).delete(this.name);
    this.callback(this.failure ?? error);
  }

  handleReadyForQuery(): void {
    if (this.failure !== undefined) this.callback(this.failure);
    else this.callback(null, { command: this.command, rowCount: this.rowCount, rows: this.rows });
  }
}

/**
 * Runs the named prepared statement on `client` (parsing it on first use on this connection).
 * Values are encoded as node-postgres encodes them, before anything is sent: a value that cannot
 * be encoded fails the query without touching the connection.
 */
export function queryPrepared(client: pg.ClientBase, name: string, text: string, values: readonly unknown[]): Promise<PreparedResult> {
  return new Promise((resolve, reject) => {
    const encoded = values.map((value) => pgUtils.prepareValue(value));
    void client.query(new PreparedQuery(name, text, encoded, (error, result) => (error ? reject(error) : resolve(result!))));
  });
}
