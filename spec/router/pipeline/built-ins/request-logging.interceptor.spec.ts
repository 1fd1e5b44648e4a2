import 'reflect-metadata';
import { expect } from 'chai';
import { container } from 'tsyringe';
import { Context, DIAGNOSTICS, RequestLoggingInterceptor, ToolError, type Diagnostics, type RequestLogEntry } from '../../../../lib';
import { formatEntry } from '../../../../lib/router/pipeline/built-ins/request-logging.interceptor';
import { OperationCall } from '../../../../lib/router/pipeline/execution-context';

const call = (target: string | undefined = 'echo') => new OperationCall('tool', 'tools/call', target, { secret: 'pw' }, new Context({ sessionId: '0123456789abcdef', requestId: 7 }));

describe('RequestLoggingInterceptor', () => {
  describe('#intercept', () => {
    context('with a function', () => {
      it('hands it one entry per call, with its duration, and returns the handler\'s value unchanged', async () => {
        const entries: RequestLogEntry[] = [];
        const value = { content: [] };
        expect(await new RequestLoggingInterceptor((entry) => entries.push(entry)).intercept(call(), async () => value)).to.equal(value);
        expect(entries).to.have.length(1);
        const { durationMs, ...rest } = entries[0];
        expect(durationMs).to.be.a('number').and.at.least(0);
        expect(rest).to.deep.equal({ kind: 'tool', method: 'tools/call', target: 'echo', sessionId: '0123456789abcdef', requestId: 7, outcome: 'ok' });
      });

      it('reports a failure by the error\'s name, and rethrows it', async () => {
        const entries: RequestLogEntry[] = [];
        const error = new ToolError('no');
        const thrown = await new RequestLoggingInterceptor((entry) => entries.push(entry)).intercept(call(), async () => { throw error; }).catch((e: unknown) => e);
        expect(thrown).to.equal(error);
        expect(entries[0]).to.include({ outcome: 'error', error: 'ToolError' });
      });

      it('reports a tool\'s isError result as a failure', async () => {
        const entries: RequestLogEntry[] = [];
        await new RequestLoggingInterceptor((entry) => entries.push(entry)).intercept(call(), async () => ({ content: [], isError: true }));
        expect(entries[0]).to.include({ outcome: 'error', error: 'isError' });
      });
    });

    context('made with no argument', () => {
      it('writes one line per call to stderr', async () => {
        const written: string[] = [];
        const write = process.stderr.write;
        process.stderr.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
        try {
          await new RequestLoggingInterceptor().intercept(call(), async () => 'ok');
        } finally {
          process.stderr.write = write;
        }
        expect(written).to.have.length(1);
        expect(written[0]).to.match(/^\[phantom-mcp\] tools\/call echo \(session 01234567\) ok in \d+\.\d ms\n$/);
      });
    });

    context('resolved from a server\'s container', () => {
      it('writes one line per call to the server\'s diagnostics, without the arguments', async () => {
        const lines: string[] = [];
        const diagnostics: Diagnostics = { error: () => {}, warn: () => {}, info: (line) => lines.push(line) };
        const child = container.createChildContainer();
        child.registerInstance(DIAGNOSTICS, diagnostics);
        await child.resolve(RequestLoggingInterceptor).intercept(call(), async () => 'ok');
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(/^tools\/call echo \(session 01234567\) ok in \d+\.\d ms$/);
        expect(lines[0]).not.to.include('pw');
      });

      it('writes to warn when the diagnostics have no info', async () => {
        const lines: string[] = [];
        const child = container.createChildContainer();
        child.registerInstance(DIAGNOSTICS, { error: () => {}, warn: (line: string) => lines.push(line) });
        await child.resolve(RequestLoggingInterceptor).intercept(call(), async () => 'ok');
        expect(lines).to.have.length(1);
      });
    });
  });
});

describe('formatEntry', () => {
  it('quotes a target holding control characters, so a URI cannot forge log lines', () => {
    const line = formatEntry({ kind: 'resource', method: 'resources/read', target: 'x://a\n[phantom-mcp] forged', durationMs: 1, outcome: 'ok' });
    expect(line).to.equal('resources/read "x://a\\n[phantom-mcp] forged" ok in 1.0 ms');
  });

  it('names the failure', () => {
    expect(formatEntry({ kind: 'list', method: 'tools/list', durationMs: 0.25, outcome: 'error', error: 'ForbiddenError' })).to.equal('tools/list failed (ForbiddenError) in 0.3 ms');
  });
});
