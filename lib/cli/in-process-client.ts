import { ErrorCode, InMemoryTransport, type JsonObject, type PhantomServer } from '../index';
import { Method, Notification } from '../entries/protocol';

/** What the server asks of the client while a call runs, which the CLI cannot answer. */
export interface Refusal {
  readonly method: string;
  readonly message?: string;
}

export interface ClientEvents {
  /** A `notifications/message` (ctx.log) or `notifications/progress` line, for stderr. */
  readonly note: (line: string) => void;
}

/** The protocol version the CLI speaks; a server that serves another one answers with it. */
const PROTOCOL_VERSION = '2025-11-25';

/**
 * The smallest MCP client over an in-memory pipe: enough to initialise a session, send requests
 * and print what the server tells on the way. It declares form elicitation so that a tool which
 * elicits is told plainly that nobody can answer (rather than that the client lacks the
 * capability), and records it: the CLI then says so.
 */
export class InProcessClient {
  private readonly pending = new Map<number, (outcome: JsonObject) => void>();
  private nextId = 1;
  /** The requests from the server this client refused (elicitations), in order. */
  readonly refused: Refusal[] = [];

  private constructor(private readonly transport: InMemoryTransport, private readonly events: ClientEvents) {}

  static async connect(server: PhantomServer, events: ClientEvents): Promise<InProcessClient> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new InProcessClient(clientSide, events);
    clientSide.onmessage = (message) => client.receive(message as JsonObject);
    await clientSide.start();
    const init = await client.request(Method.Initialize, {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'phantom-mcp-cli', version: '1' },
    });
    if (init.error) throw new Error(`initialize failed: ${(init.error as JsonObject).message}`);
    await clientSide.send({ jsonrpc: '2.0', method: Notification.Initialized });
    return client;
  }

  /** Resolves with the whole response: `{ result }` or `{ error }`. */
  request(method: string, params: JsonObject): Promise<JsonObject> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      void this.transport.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private receive(message: JsonObject): void {
    if (typeof message.method !== 'string') {
      const settle = this.pending.get(message.id as number);
      this.pending.delete(message.id as number);
      settle?.(message);
      return;
    }
    const params = (message.params ?? {}) as JsonObject;
    if (message.id === undefined) {
      this.notified(message.method, params);
      return;
    }
    const reason = message.method === Method.ElicitationCreate
      ? 'phantom-mcp call cannot answer an elicitation: nobody is there to fill in the form'
      : `phantom-mcp call does not answer ${message.method}`;
    this.refused.push({ method: message.method, message: typeof params.message === 'string' ? params.message : undefined });
    void this.transport.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.MethodNotFound, message: reason } } as never);
  }

  private notified(method: string, params: JsonObject): void {
    if (method === Notification.Message) {
      const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
      this.events.note(`[${String(params.level)}]${params.logger ? ` ${String(params.logger)}:` : ''} ${data}`);
    } else if (method === Notification.Progress) {
      const total = params.total === undefined ? '' : `/${String(params.total)}`;
      // JSON quoting keeps a message with quotes or line breaks on its one line, unambiguous.
      this.events.note(`[progress] ${String(params.progress)}${total}${typeof params.message === 'string' ? ` ${JSON.stringify(params.message)}` : ''}`);
    }
  }
}
