import 'reflect-metadata';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { context as otelContext, metrics, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type ContextManager, type Context as OtelContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { IsString } from 'class-validator';
import {
  Context, Elicit, ErrorCode, Field, Prompt, ProtocolError, PhantomServer, Resource, SILENT_DIAGNOSTICS, Tool, ToolError, ToolResult, userText,
} from '../../../../lib';
import { TelemetryInterceptor, type TelemetryOptions } from '../../../../lib/entries/otel';
import { connect } from 'phantom-mcp/testing';
import { call, meta as statelessMeta } from '../../../integration/support/stateless-client';
import { LATEST_SESSION_VERSION } from '../../../../lib/protocol/versions';

/** A reader that exports only when asked: the spec collects after its calls. */
class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** An SDK of its own per test: spans in memory, metrics read on demand. */
function sdk() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => spans.getFinishedSpans(),
    async durations(): Promise<HistogramMetricData | undefined> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((metric) => metric.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData | undefined;
    },
  };
}

/** The context manager an SDK installs (here on AsyncLocalStorage): what makes a span "active" across awaits. */
class AsyncContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<OtelContext>();
  active(): OtelContext { return this.storage.getStore() ?? ROOT_CONTEXT; }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: OtelContext, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }
  bind<T>(_context: OtelContext, target: T): T { return target; }
  enable(): this { return this; }
  disable(): this { return this; }
}

/** The application's own tracer, for a span inside a tool. */
let appTracer = trace.getTracer('app');

class NoteArgs {
  @Field({ description: 'Title' }) @IsString() title!: string;
}

class PlanArgs {
  @Field({ description: 'City' }) @IsString() city!: string;
}

class Notes {
  @Tool({ description: 'Write a note' })
  notes_write(args: NoteArgs) {
    return `saved ${args.title}`;
  }

  @Tool({ description: 'Refuses, in words for the model' })
  notes_refuse() {
    throw new ToolError('No notes today');
  }

  @Tool({ description: 'Answers with an error result' })
  notes_error_result() {
    return ToolResult.error('Nothing to read');
  }

  @Tool({ description: 'Fails with a JSON-RPC error' })
  notes_forbidden() {
    throw new ProtocolError(ErrorCode.Forbidden, 'Not yours');
  }

  @Tool({ description: 'Has a bug' })
  notes_bug() {
    throw new TypeError('undefined is not a function');
  }

  @Tool({ description: 'Calls a service of the application, which traces itself' })
  notes_sync() {
    appTracer.startSpan('sync the notes').end();
    return 'synced';
  }

  @Tool({ description: 'Asks the user first' })
  async notes_confirm(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Elicit.form({ message: 'Sure?', requestedSchema: [{ name: 'sure', type: 'boolean' }] }));
    return answer.action;
  }

  @Prompt({ description: 'Plan a trip' })
  plan(args: PlanArgs) {
    if (args.city === 'Atlantis') throw new ToolError('No such city');
    return [userText(`Plan a trip to ${args.city}`)];
  }

  @Resource('notes://{slug}', { description: 'A note', mimeType: 'text/plain' })
  note({ slug }: { slug: string }) {
    return `the note ${slug}`;
  }
}

function serverWith(options: TelemetryOptions): PhantomServer {
  const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });
  server.use(new TelemetryInterceptor(options));
  return server;
}

const callOf = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

describe('TelemetryInterceptor', () => {
  describe('#intercept', () => {
    context('on a tool call', () => {
      it('makes a SERVER span named by the method and the tool, with the session, era, version, subject and request id', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        const ctx = new Context({ requestId: 7, sessionId: 'session-1', principal: { sub: 'user-42', roles: ['writer'] }, era: 'session', protocolVersion: '2025-11-25' });
        const outcome = await server.handle('tools/call', callOf('notes_write', { title: 'groceries' }), ctx);
        expect(outcome).to.have.nested.property('result.content[0].text', 'saved groceries');
        expect(spans()).to.have.length(1);
        const [span] = spans();
        expect(span.name).to.equal('tools/call notes_write');
        expect(span.kind).to.equal(SpanKind.SERVER);
        expect(span.status.code).to.equal(SpanStatusCode.UNSET);
        expect(span.attributes).to.deep.equal({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'notes_write',
          'gen_ai.operation.name': 'execute_tool',
          'mcp.protocol.version': '2025-11-25',
          'phantom_mcp.era': 'session',
          'jsonrpc.request.id': '7',
          'mcp.session.id': 'session-1',
          'enduser.id': 'user-42',
          'phantom_mcp.outcome': 'result',
        });
      });

      it('takes the subject from `subject` too, and leaves it out when asked', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_write', { title: 'a' }), new Context({ principal: { subject: 'svc-7' } }));
        await serverWith({ tracerProvider, meterProvider, recordSubject: false }).handle('tools/call', callOf('notes_write', { title: 'a' }), new Context({ principal: { sub: 'user-42' } }));
        expect(spans().map((span) => span.attributes['enduser.id'])).to.deep.equal(['svc-7', undefined]);
      });

      it('records the arguments only when asked (they may hold secrets)', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_write', { title: 'password 1234' }));
        await serverWith({ tracerProvider, meterProvider, recordArguments: true }).handle('tools/call', callOf('notes_write', { title: 'password 1234' }));
        expect(spans().map((span) => span.attributes['gen_ai.tool.call.arguments'])).to.deep.equal([undefined, '{"title":"password 1234"}']);
      });

      it('marks a ToolError as a tool error: error.type tool_error and status ERROR', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const outcome = await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_refuse'));
        expect(outcome).to.have.nested.property('result.isError', true);
        const [span] = spans();
        expect(span.attributes).to.include({ 'phantom_mcp.outcome': 'tool_error', 'error.type': 'tool_error' });
        expect(span.attributes).not.to.have.property('rpc.response.status_code');
        expect(span.status.code).to.equal(SpanStatusCode.ERROR);
        expect(span.events).to.deep.equal([]);
      });

      it('marks an isError result the tool returned as a tool error', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_error_result'));
        expect(spans()[0].attributes).to.include({ 'phantom_mcp.outcome': 'tool_error', 'error.type': 'tool_error' });
      });

      it('marks a protocol error with its code and message', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const outcome = await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_forbidden'));
        expect(outcome).to.have.nested.property('error.code', ErrorCode.Forbidden);
        const [span] = spans();
        expect(span.attributes).to.include({ 'phantom_mcp.outcome': 'protocol_error', 'error.type': String(ErrorCode.Forbidden), 'rpc.response.status_code': String(ErrorCode.Forbidden) });
        expect(span.status).to.deep.equal({ code: SpanStatusCode.ERROR, message: 'Not yours' });
      });

      it('records a bug as an exception event, answered (and marked) as the generic tool error', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_bug'));
        const [span] = spans();
        expect(span.attributes).to.include({ 'error.type': 'tool_error' });
        expect(span.events.map((event) => [event.name, event.attributes?.['exception.type'], event.attributes?.['exception.message']]))
          .to.deep.equal([['exception', 'TypeError', 'undefined is not a function']]);
      });
    });

    context('on a prompt, a resource and a list', () => {
      it('names a prompt span by the prompt, and maps a ToolError there to -32602 as the response does', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        await server.handle('prompts/get', { name: 'plan', arguments: { city: 'Oslo' } });
        const refused = await server.handle('prompts/get', { name: 'plan', arguments: { city: 'Atlantis' } });
        expect(refused).to.have.nested.property('error.code', ErrorCode.InvalidParams);
        expect(spans().map((span) => [span.name, span.attributes['gen_ai.prompt.name'], span.attributes['error.type']]))
          .to.deep.equal([['prompts/get plan', 'plan', undefined], ['prompts/get plan', 'plan', String(ErrorCode.InvalidParams)]]);
      });

      it('keeps a resource URI out of the span name, in mcp.resource.uri', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('resources/read', { uri: 'notes://groceries' });
        expect(spans().map((span) => [span.name, span.attributes['mcp.resource.uri']])).to.deep.equal([['resources/read', 'notes://groceries']]);
      });

      it('names a method without a target by the method alone', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/list', {});
        expect(spans().map((span) => [span.name, span.attributes['mcp.method.name'], span.attributes['phantom_mcp.outcome']])).to.deep.equal([['tools/list', 'tools/list', 'result']]);
      });
    });

    context('for metrics', () => {
      it('records the duration in seconds per method, tool and outcome; the count is the number of calls', async () => {
        const { tracerProvider, meterProvider, durations } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        await server.handle('tools/call', callOf('notes_write', { title: 'a' }), new Context({ sessionId: 'one', principal: { sub: 'ann' } }));
        await server.handle('tools/call', callOf('notes_write', { title: 'b' }), new Context({ sessionId: 'two', principal: { sub: 'bob' } }));
        await server.handle('tools/call', callOf('notes_refuse'));
        await server.handle('resources/read', { uri: 'notes://groceries' });
        const metric = await durations();
        expect(metric?.descriptor.unit).to.equal('s');
        const points = metric!.dataPoints.map(({ attributes, value }) => ({ attributes, count: value.count }));
        expect(points).to.have.deep.members([
          { attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'notes_write', 'gen_ai.operation.name': 'execute_tool', 'phantom_mcp.outcome': 'result' }, count: 2 },
          { attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'notes_refuse', 'gen_ai.operation.name': 'execute_tool', 'phantom_mcp.outcome': 'tool_error', 'error.type': 'tool_error' }, count: 1 },
          // No URI, session or subject on a metric point: their values are unbounded.
          { attributes: { 'mcp.method.name': 'resources/read', 'phantom_mcp.outcome': 'result' }, count: 1 },
        ]);
        expect(metric!.dataPoints[0].value.buckets.boundaries).to.deep.equal([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
      });

      it('records nothing for an unknown tool: it is refused before the pipeline, so its name never becomes a label', async () => {
        const { tracerProvider, meterProvider, spans, durations } = sdk();
        const outcome = await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('guess_0001'));
        expect(outcome).to.have.nested.property('error.code', ErrorCode.InvalidParams);
        expect(spans()).to.deep.equal([]);
        expect((await durations())?.dataPoints ?? []).to.deep.equal([]);
      });
    });

    context('when the client sends a W3C traceparent in _meta', () => {
      const clientSpan = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
      const meta = { traceparent: `00-${clientSpan.traceId}-${clientSpan.spanId}-01`, tracestate: 'vendor=abc' };

      afterEach(() => propagation.disable());

      it('makes the span a child of the client\'s, through the application\'s propagator', async () => {
        propagation.setGlobalPropagator(new W3CTraceContextPropagator());
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', { ...callOf('notes_write', { title: 'a' }), _meta: meta }, new Context({ meta }));
        const [span] = spans();
        expect(span.spanContext().traceId).to.equal(clientSpan.traceId);
        expect(span.parentSpanContext?.spanId).to.equal(clientSpan.spanId);
        expect(span.parentSpanContext?.isRemote).to.equal(true);
      });

      it('starts a trace of its own when no propagator is configured', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_write', { title: 'a' }), new Context({ meta }));
        expect(spans()[0].spanContext().traceId).not.to.equal(clientSpan.traceId);
        expect(spans()[0].parentSpanContext).to.equal(undefined);
      });

      it('ignores a traceparent that is not a string', async () => {
        propagation.setGlobalPropagator(new W3CTraceContextPropagator());
        const { tracerProvider, meterProvider, spans } = sdk();
        const outcome = await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_write', { title: 'a' }), new Context({ meta: { traceparent: [meta.traceparent] } }));
        expect(outcome).to.have.property('result');
        expect(spans()[0].parentSpanContext).to.equal(undefined);
      });
    });

    context('with a context manager, as an SDK installs', () => {
      beforeEach(() => otelContext.setGlobalContextManager(new AsyncContextManager()));
      afterEach(() => {
        otelContext.disable();
        propagation.disable();
      });

      it('runs the handler with its span active: the application\'s spans nest under it', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        appTracer = tracerProvider.getTracer('app');
        await serverWith({ tracerProvider, meterProvider }).handle('tools/call', callOf('notes_sync'));
        const [inner, outer] = spans();
        expect([inner.name, outer.name]).to.deep.equal(['sync the notes', 'tools/call notes_sync']);
        expect(inner.parentSpanContext?.spanId).to.equal(outer.spanContext().spanId);
      });

      it('links the ambient span (the HTTP request\'s) when the client\'s traceparent is the parent', async () => {
        propagation.setGlobalPropagator(new W3CTraceContextPropagator());
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        const meta = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
        const http = tracerProvider.getTracer('http').startSpan('POST /mcp');
        await otelContext.with(trace.setSpan(otelContext.active(), http), () => server.handle('tools/call', callOf('notes_write', { title: 'a' }), new Context({ meta })));
        http.end();
        const [span] = spans();
        expect(span.parentSpanContext?.spanId).to.equal('00f067aa0ba902b7');
        expect(span.links.map((link) => link.context.spanId)).to.deep.equal([http.spanContext().spanId]);
      });
    });

    context('with the global providers', () => {
      afterEach(() => {
        trace.disable();
        metrics.disable();
      });

      it('records nothing with the API alone, and answers as without it', async () => {
        const outcome = await serverWith({}).handle('tools/call', callOf('notes_write', { title: 'a' }));
        expect(outcome).to.have.nested.property('result.content[0].text', 'saved a');
      });

      it('sends to the SDK registered globally, even after the interceptor was made', async () => {
        const server = serverWith({});
        await server.handle('tools/call', callOf('notes_write', { title: 'before the SDK' }));
        const { tracerProvider, meterProvider, spans, durations } = sdk();
        trace.setGlobalTracerProvider(tracerProvider);
        metrics.setGlobalMeterProvider(meterProvider);
        await server.handle('tools/call', callOf('notes_write', { title: 'a' }));
        expect(spans().map((span) => span.name)).to.deep.equal(['tools/call notes_write']);
        expect((await durations())?.dataPoints.map((point) => point.value.count)).to.deep.equal([1]);
      });
    });

    context('over Streamable HTTP in the stateless era', () => {
      it('marks a round that ends by asking the client for input as input_required, not as an error', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        const listener = await server.listen({ port: 0 });
        try {
          const reply = await call(listener.url, 'tools/call', { _meta: statelessMeta({ elicitation: {} }), name: 'notes_confirm', arguments: {} });
          expect(reply.body.result.resultType).to.equal('input_required');
          const [span] = spans();
          expect([span.name, span.attributes['phantom_mcp.outcome'], span.attributes['error.type'], span.status.code])
            .to.deep.equal(['tools/call notes_confirm', 'input_required', undefined, SpanStatusCode.UNSET]);
        } finally {
          await server.close();
        }
      });
    });

    context('over the in-memory transport, with the official client', () => {
      it('makes a span per request, with the session id', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        const client = await connect(server);
        try {
          await client.callTool({ name: 'notes_write', arguments: { title: 'a' } });
          await client.callTool({ name: 'notes_refuse', arguments: {} });
          const calls = spans().filter((span) => span.attributes['mcp.method.name'] === 'tools/call');
          expect(calls.map((span) => [span.name, span.attributes['phantom_mcp.outcome']])).to.deep.equal([
            ['tools/call notes_write', 'result'],
            ['tools/call notes_refuse', 'tool_error'],
          ]);
          expect(calls[0].attributes['mcp.session.id']).to.be.a('string').and.not.equal('');
          expect(calls[0].attributes['jsonrpc.request.id']).to.be.a('string');
          expect(calls[0].attributes['phantom_mcp.era']).to.equal('session');
          expect(calls[0].attributes['mcp.protocol.version']).to.equal(LATEST_SESSION_VERSION);
        } finally {
          await client.close();
          await server.close();
        }
      });

      it('takes the parent from the traceparent the client sent in _meta', async () => {
        propagation.setGlobalPropagator(new W3CTraceContextPropagator());
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = serverWith({ tracerProvider, meterProvider });
        const client = await connect(server);
        try {
          const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
          await client.callTool({ name: 'notes_write', arguments: { title: 'a' }, _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
          const [call] = spans().filter((span) => span.attributes['mcp.method.name'] === 'tools/call');
          expect(call.spanContext().traceId).to.equal(traceId);
        } finally {
          propagation.disable();
          await client.close();
          await server.close();
        }
      });
    });

    context('when the server is made with `telemetry: { ... }`', () => {
      it('records every operation, outermost, without a use() call', async () => {
        const { tracerProvider, meterProvider, spans } = sdk();
        const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS, telemetry: { tracerProvider, meterProvider } });
        await server.handle('tools/call', callOf('notes_write', { title: 'a' }));
        expect(spans().map((span) => span.name)).to.deep.equal(['tools/call notes_write']);
      });
    });
  });

  context('when @opentelemetry/api is not installed', () => {
    it('phantom-mcp still loads, and the interceptor serves calls without recording', () => {
      // A child process whose resolver answers every @opentelemetry package as Node does for a missing one.
      const script = [
        "const Module = require('node:module');",
        'const resolve = Module._resolveFilename;',
        'let refused = 0;',
        "Module._resolveFilename = function (request, ...rest) {",
        "  if (request.startsWith('@opentelemetry/')) { refused++; throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' }); }",
        '  return resolve.call(this, request, ...rest);',
        '};',
        `require(${JSON.stringify(join(__dirname, 'support', 'telemetry-without-api.fixture.js'))}).callOnce()`,
        '  .then((text) => console.log(JSON.stringify({ text, refused })));',
      ].join('\n');
      const printed = execFileSync(process.execPath, ['-r', 'reflect-metadata', '-e', script], { encoding: 'utf8', timeout: 20_000 });
      expect(JSON.parse(printed)).to.deep.equal({ text: 'hello Ada', refused: 1 });
    });
  });
});
