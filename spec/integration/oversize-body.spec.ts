import 'reflect-metadata';
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Server } from 'node:http';
import { PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { INITIALIZE, MCP_ACCEPT, post } from './support/raw-http';

class Echo {
  @Tool({ description: 'Echoes' })
  echo() {
    return 'echo';
  }
}

const LIMIT = 1024;
const MIB = 1024 * 1024;
/** More than loopback's socket buffers hold (about 4 MiB here): the client is still sending when the server answers. */
const UPLOAD = 16 * MIB;
const DISCARD = 32 * MIB;

interface Upload {
  /** What the server answered, as received. */
  readonly response: string;
  /** How the connection failed, if it did (a reset while the client was sending). */
  readonly error?: NodeJS.ErrnoException;
}

/** Waits for room in the socket's buffer, or for its end. */
function writable(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.once('drain', resolve);
    socket.once('close', resolve);
  });
}

/**
 * Sends a POST of `total` bytes on a raw socket, every byte of it whatever the server does, with a
 * Content-Length (`declared`) or chunked, and returns what came back once the connection closed.
 */
function upload(port: number, total: number, declared: number | 'chunked' = total): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    let error: NodeJS.ErrnoException | undefined;
    socket.on('data', (data: Buffer) => { response += data.toString('latin1'); });
    socket.on('error', (e: NodeJS.ErrnoException) => { error = e; });
    socket.on('close', () => resolve({ response, error }));
    socket.on('connect', async () => {
      const length = declared === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${declared}`;
      socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: ${MCP_ACCEPT}\r\n${length}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent < total && !socket.destroyed; sent += chunk.length) {
        const piece = declared === 'chunked' ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        if (!socket.write(piece)) await writable(socket);
      }
      if (declared === 'chunked' && !socket.destroyed) socket.write('0\r\n\r\n');
    });
  });
}

/** Sends only the head of a POST declaring `declared` bytes, and returns what came back once the connection closed. */
function headOnly(port: number, declared: number): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (data: Buffer) => { response += data.toString('latin1'); });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ response }));
    socket.on('connect', () => {
      socket.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: ${MCP_ACCEPT}\r\ncontent-length: ${declared}\r\n\r\n`);
    });
  });
}

function expectClean413(upload: Upload): void {
  expect(upload.error?.code, 'the connection failed').to.equal(undefined);
  expect(upload.response).to.match(/^HTTP\/1\.1 413 /);
  expect(upload.response.toLowerCase()).to.contain('connection: close');
}

describe('readBody', () => {
  context('through listen()', () => {
    let server: PhantomServer;
    let listener: HttpListener;
    let port: number;

    beforeEach(async () => {
      server = new PhantomServer({ name: 'echo', version: '1.0.0', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({ port: 0, maxBodyBytes: LIMIT, maxDiscardBytes: DISCARD });
      port = Number(new URL(listener.url).port);
    });
    afterEach(async () => {
      await listener.close();
      await server.close();
    });

    context('when a fetch client POSTs a body of several MB over maxBodyBytes', () => {
      it('reads the 413 every time, and the server serves on', async () => {
        const statuses: (number | string)[] = [];
        for (let i = 0; i < 10; i += 1) {
          const reply = await fetch(listener.url, {
            method: 'POST', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT }, body: Buffer.alloc(5 * MIB, 0x20),
          }).then(async (response) => { await response.text(); return response.status; }, (error: Error) => `${error.message}: ${String((error.cause as Error | undefined)?.message)}`);
          statuses.push(reply);
        }
        expect(statuses).to.deep.equal(Array(10).fill(413));
        expect((await post(listener.url, INITIALIZE)).status).to.equal(200);
      });
    });

    context('when the client is still sending the rest of a body declared too large', () => {
      it('drains it, then answers 413 with Connection: close on a connection that ends cleanly', async () => {
        expectClean413(await upload(port, UPLOAD));
      });
    });

    context('when a chunked body grows past maxBodyBytes while the client is still sending', () => {
      it('drains it, then answers 413 with Connection: close on a connection that ends cleanly', async () => {
        expectClean413(await upload(port, UPLOAD, 'chunked'));
      });
    });

    context('when a body declares more than maxBodyBytes + maxDiscardBytes', () => {
      it('answers 413 at once, without waiting for the body', async () => {
        const { response } = await headOnly(port, LIMIT + DISCARD + 1);
        expect(response).to.match(/^HTTP\/1\.1 413 /);
      });
    });
  });

  context('through httpHandler() mounted in Express', () => {
    let server: PhantomServer;
    let http: Server;
    let port: number;

    beforeEach(async () => {
      server = new PhantomServer({ name: 'echo', version: '1.0.0', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS });
      const handler = server.httpHandler({ maxBodyBytes: LIMIT, maxDiscardBytes: DISCARD });
      const app = express();
      app.all('/mcp', handler.handle);
      http = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
      port = (http.address() as AddressInfo).port;
    });
    afterEach(async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => { http.close(() => resolve()); });
    });

    context('when the client is still sending the rest of a body declared too large', () => {
      it('drains it, then answers 413 with Connection: close on a connection that ends cleanly', async () => {
        expectClean413(await upload(port, UPLOAD));
      });
    });
  });
});
