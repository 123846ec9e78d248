import net from 'node:net';

/**
 * The plugins' side of the runner bridge (server/runner/bridge.ts): newline-delimited JSON, a
 * request's bytes (a batch's COPY data) right after its line, answers in order.
 * RUNNER_BRIDGE and RUNNER_BRIDGE_TOKEN come from the job's environment.
 */
export class BridgeClient {
  private socket: net.Socket | undefined;
  private buffer = '';
  private waiting: Array<{ resolve: (value: unknown) => void; reject: (error: Error) => void }> = [];

  static fromEnv(env: NodeJS.ProcessEnv = process.env): BridgeClient | undefined {
    const socketPath = env.RUNNER_BRIDGE;
    const token = env.RUNNER_BRIDGE_TOKEN;
    return socketPath && token ? new BridgeClient(socketPath, token) : undefined;
  }

  constructor(
    private readonly socketPath: string,
    private readonly token: string,
  ) {}

  private connecting: Promise<void> | undefined;

  /** Connects and sends the token once, however many requests are waiting for it. */
  private connect(): Promise<void> {
    this.connecting ??= this.open();
    return this.connecting;
  }

  private async open(): Promise<void> {
    const socket = net.createConnection(this.socketPath);
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let index = this.buffer.indexOf('\n');
      while (index >= 0) {
        const line = this.buffer.slice(0, index);
        this.buffer = this.buffer.slice(index + 1);
        const next = this.waiting.shift();
        const reply = JSON.parse(line) as { ok: boolean; result?: unknown; error?: string };
        if (reply.ok) next?.resolve(reply.result);
        else next?.reject(new Error(reply.error ?? 'bridge error'));
        index = this.buffer.indexOf('\n');
      }
    });
    const fail = (error: Error) => {
      for (const w of this.waiting.splice(0)) w.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the runner bridge closed')));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    await this.send({ token: this.token });
  }

  private send(request: Record<string, unknown>, data?: Uint8Array): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket!.write(`${JSON.stringify(data ? { ...request, bytes: data.length } : request)}\n`);
      if (data) this.socket!.write(data);
    });
  }

  /** Sends a request (with `data` after its line) and resolves with its answer; several may be on their way at once. */
  async request(op: string, payload: Record<string, unknown>, data?: Uint8Array): Promise<unknown> {
    await this.connect();
    return this.send({ op, ...payload }, data);
  }

  close(): void {
    this.socket?.end();
    this.socket = undefined;
    this.connecting = undefined;
  }
}
