// Testing with phantom-mcp/testing: each exported function is a complete check, run by
// spec/docs/examples.spec.ts and spec/docs/examples/testing.spec.ts. Included in docs/guide/testing.md.
import 'reflect-metadata';
// #region connect
import { strict as assert } from 'node:assert';
import { connect, expectToolError, structuredOf, textOf } from 'phantom-mcp/testing';
import { createServer as helloServer } from './hello';
import { createServer as weatherServer, WeatherApi } from './tools';
import { createServer as bookingServer } from './elicitation';

export async function greetsByName(): Promise<void> {
  const client = await connect(helloServer());
  const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  assert.equal(textOf(result), 'Hello, Ada!');
  await client.close(); // ends the connection on both sides
}
// #endregion connect

// #region overrides
export async function forecastFromAFake(): Promise<void> {
  const fakeApi = { forecast: async () => ({ city: 'Oslo', days: [{ high: 21 }] }) };
  const client = await connect(weatherServer(), { overrides: [[WeatherApi, fakeApi]] });
  const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
  assert.deepEqual(structuredOf(result), { city: 'Oslo', days: [{ high: 21 }] });
  await client.close();
}

export async function noForecastIsAToolError(): Promise<void> {
  const client = await connect(weatherServer(), { overrides: [[WeatherApi, { forecast: async () => undefined }]] });
  expectToolError(await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } }), /No forecast for Atlantis/);
  await client.close();
}
// #endregion overrides

// #region eras
export async function booksInBothEras(): Promise<void> {
  const answers: Record<string, Record<string, string | number>> = {
    'How many people?': { people: 4 },
    'Which day?': { day: '2026-12-24' },
  };
  for (const era of ['session', 'stateless'] as const) {
    const client = await connect(bookingServer(), {
      era, // the same answers, whether asked mid-call or in input_required rounds
      elicit: (params) => ({ action: 'accept', content: answers[params.message] }),
    });
    const result = await client.callTool({ name: 'book_table', arguments: {} });
    assert.equal(textOf(result), 'Booked a table for 4 on 2026-12-24.');
    await client.close();
  }
}
// #endregion eras

// #region test-context
import { testContext } from 'phantom-mcp/testing';
import { ForecastArgs, WeatherTools } from './tools';

export async function reportsProgress(): Promise<void> {
  const { ctx, progress, logs } = testContext();
  const tools = new WeatherTools(new WeatherApi()); // built by hand: no container, no pipeline
  const args = Object.assign(new ForecastArgs(), { city: 'Oslo', days: 1 });
  assert.deepEqual(await tools.forecast(args, ctx), { city: 'Oslo', days: [{ high: 18 }] });
  assert.deepEqual(progress, [{ progress: 1, total: 2 }]);
  assert.deepEqual(logs, []);
}
// #endregion test-context

// #region handle
export async function validatedInProcess(): Promise<void> {
  const server = weatherServer();
  const { ctx } = testContext();
  // Through the pipeline: the DTO refuses 15 days before the handler runs.
  const refused = await server.handle('tools/call', { name: 'forecast', arguments: { city: 'Oslo', days: 15 } }, ctx);
  expectToolError(refused, /days/);
  const answered = await server.handle('tools/call', { name: 'forecast', arguments: { city: 'Oslo', days: 1 } }, ctx);
  assert.deepEqual(structuredOf(answered), { city: 'Oslo', days: [{ high: 18 }] });
  await server.close();
}
// #endregion handle
