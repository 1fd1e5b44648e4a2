import 'reflect-metadata';
import { expect } from 'chai';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { createLoggedServer, createTracedServer, telemetryTo } from '../../../docs/examples/observability';
import type { RequestLogEntry } from '../../../lib';
import { connect, textOf } from '../../../lib/testing';

/** A reader that exports only when asked: the spec collects after its calls. */
class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** docs/guide/observability.md, run as the page teaches. */
describe('docs/examples/observability.ts (the observability guide)', () => {
  describe('ctx.log', () => {
    it('sends the client the lines its level lets through', async () => {
      const client = await connect(createLoggedServer(() => {}, () => {}));
      const messages: LoggingMessageNotification['params'][] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => { messages.push(notification.params); });
      await client.setLoggingLevel('info');
      await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
      expect(messages).to.deep.equal([{ level: 'info', data: 'Looking up Oslo', logger: 'weather' }]);
      await client.close();
    });
  });

  describe('RequestLoggingInterceptor and the diagnostics', () => {
    it('hands one entry per call to the sink, and the detail of an unexpected error to the diagnostics only', async () => {
      const lines: string[] = [];
      const entries: RequestLogEntry[] = [];
      const client = await connect(createLoggedServer((line) => lines.push(line), (entry) => entries.push(entry)));
      await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
      const failed = await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } });

      expect(entries.map(({ method, target, outcome, error }) => ({ method, target, outcome, error }))).to.deep.equal([
        { method: 'tools/call', target: 'forecast', outcome: 'ok', error: undefined },
        { method: 'tools/call', target: 'forecast', outcome: 'error', error: 'Error' },
      ]);
      expect(entries.every((entry) => typeof entry.durationMs === 'number')).to.equal(true);
      expect(failed.isError).to.equal(true);
      expect(textOf(failed)).not.to.contain('Atlantis');
      expect(lines).to.have.length(1);
      expect(JSON.parse(lines[0])).to.include({ level: 'error' });
      expect(lines[0]).to.contain('no station reports from Atlantis');
      await client.close();
    });
  });

  describe('telemetry', () => {
    it('records a SERVER span and the duration histogram per call', async () => {
      const spans = new InMemorySpanExporter();
      const reader = new CollectingReader();
      const telemetry = telemetryTo(spans, reader);
      const client = await connect(createTracedServer(telemetry));
      await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
      await telemetry.tracerProvider.forceFlush();

      const [span] = spans.getFinishedSpans().filter((finished) => finished.name === 'tools/call forecast');
      expect(span.attributes).to.include({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'forecast', 'phantom_mcp.outcome': 'result' });
      const { resourceMetrics } = await reader.collect();
      const duration = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData | undefined;
      const calls = duration?.dataPoints.filter((point) => point.attributes['gen_ai.tool.name'] === 'forecast') ?? [];
      expect(calls.map((point) => point.value.count)).to.deep.equal([1]);
      expect(duration?.descriptor.unit).to.equal('s');
      await client.close();
    });
  });
});
