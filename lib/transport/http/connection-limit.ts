import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What one connection is doing: how many of its requests are being answered. */
interface Connection {
  busy: number;
}

/** Descriptors kept for everything but client connections: files, the store, the event loop, logs. */
const RESERVED_DESCRIPTORS = 128;
/** What a process whose descriptor limit cannot be read gets. */
const FALLBACK_MAX_CONNECTIONS = 1_000;

/**
 * The default `maxConnections`: the process's open-file limit (its soft limit, read from
 * `/proc/self/limits` on Linux) less what the rest of the server needs, so that connections run
 * out before descriptors do and the server can still accept, and shed, one more.
 */
export function defaultMaxConnections(limits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number {
  let soft: number;
  try {
    soft = Number(/^Max open files\s+(\d+|unlimited)/m.exec(limits())?.[1]);
  } catch {
    return FALLBACK_MAX_CONNECTIONS;
  }
  if (!Number.isFinite(soft)) return FALLBACK_MAX_CONNECTIONS;
  return Math.max(16, soft - RESERVED_DESCRIPTORS);
}

/**
 * Holds `server` to `max` open connections. A connection over the limit takes the place of the
 * oldest one with no request being answered (still sending its headers, or kept alive between
 * requests): a client that opens connections and sends nothing cannot lock others out. When every
 * connection is answering a request (an SSE stream among them), the new one is closed at once.
 */
export function limitConnections(server: Server, max: number): void {
  const open = new Map<Socket, Connection>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= max && !shedIdle(open)) {
      socket.destroy();
      return;
    }
    open.set(socket, { busy: 0 });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res) => {
    const connection = open.get(req.socket);
    if (!connection) return;
    connection.busy += 1;
    res.once('close', () => {
      connection.busy -= 1;
    });
  });
}

/** Closes the oldest connection with no request being answered; false when there is none. */
function shedIdle(open: Map<Socket, Connection>): boolean {
  for (const [socket, connection] of open) {
    if (connection.busy > 0) continue;
    open.delete(socket);
    socket.destroy();
    return true;
  }
  return false;
}
