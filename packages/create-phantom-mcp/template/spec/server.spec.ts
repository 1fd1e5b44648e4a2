import 'reflect-metadata';
import { expect } from 'chai';
import { connect, textOf } from 'phantom-mcp/testing';
import { createServer, Greetings } from '../src/server';

describe('the greeter', () => {
  it('greets by name', async () => {
    const client = await connect(createServer());
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(textOf(result)).to.equal('Hello, Ada!');
    await client.close();
  });

  it('uses the Greetings service, which a test may replace', async () => {
    const fake = { count: 0, greet: (greeting: string, name: string) => `${greeting} (fake), ${name}!` };
    const client = await connect(createServer(), { overrides: [[Greetings, fake]] });
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada', greeting: 'Hi' } });
    expect(textOf(result)).to.equal('Hi (fake), Ada!');
    await client.close();
  });
});
