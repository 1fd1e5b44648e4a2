import 'reflect-metadata';
import { expect } from 'chai';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsString, ValidateNested } from 'class-validator';
import { Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import { connectInMemory } from './support/sdk-clients';

class Line {
  @Field({ description: 'Product' }) @IsString() sku!: string;
  @Field({ description: 'How many' }) @IsInt() quantity!: number;
}

class Order {
  @Field({ description: 'Lines' }) @IsArray() @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
  @Field({ description: 'Tags' }) @IsArray() @ArrayMaxSize(3) @IsString({ each: true }) tags: string[] = [];
}

let calls = 0;

class Orders {
  @Tool({ description: 'Places an order' })
  place(order: Order) {
    calls += 1;
    return `${order.lines.length} lines`;
  }

  @Tool({ description: 'Sums numbers', inputSchema: { type: 'object', properties: { values: { type: 'array', items: { type: 'number' } } } } })
  sum({ values }: { values: number[] }) {
    calls += 1;
    return String(values.reduce((a, b) => a + b, 0));
  }
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ sku: `s${i}`, quantity: 1 }));

describe('maxArrayItems', () => {
  let server: PhantomServer;

  before(() => {
    server = new PhantomServer({ name: 'orders', version: '1.0.0', providers: [Orders], diagnostics: SILENT_DIAGNOSTICS, maxArrayItems: 5 });
  });

  after(() => server.close());

  it('lists the limit as maxItems on every array that gives none, and keeps a DTO\'s own', async () => {
    const client = await connectInMemory(server);
    const { tools } = await client.listTools();
    const place = tools.find((t) => t.name === 'place')!;
    const properties = place.inputSchema.properties as Record<string, { maxItems?: number }>;
    expect(properties.lines.maxItems).to.equal(5);
    expect(properties.tags.maxItems).to.equal(3);
    const sum = tools.find((t) => t.name === 'sum')!;
    expect((sum.inputSchema.properties as Record<string, { maxItems?: number }>).values.maxItems).to.equal(5);
    await client.close();
  });

  it('refuses an array over the limit before validation, naming it, and serves one at the limit', async () => {
    const client = await connectInMemory(server);
    calls = 0;
    const refused = await client.callTool({ name: 'place', arguments: { lines: lines(6) } });
    expect(refused.isError).to.equal(true);
    expect((refused.content as Array<{ text: string }>)[0].text).to.include('lines: must contain at most 5 items (got 6)');
    const served = await client.callTool({ name: 'place', arguments: { lines: lines(5) } });
    expect(served.content).to.deep.equal([{ type: 'text', text: '5 lines' }]);
    expect(calls).to.equal(1);
    await client.close();
  });

  it('holds a hand-written inputSchema to it too', async () => {
    const client = await connectInMemory(server);
    const refused = await client.callTool({ name: 'sum', arguments: { values: [1, 2, 3, 4, 5, 6] } });
    expect(refused.isError).to.equal(true);
    expect((refused.content as Array<{ text: string }>)[0].text).to.include('values: must contain at most 5 items (got 6)');
    await client.close();
  });

  it('applies 1,000 items by default', async () => {
    const plain = new PhantomServer({ name: 'orders', version: '1.0.0', providers: [Orders], diagnostics: SILENT_DIAGNOSTICS });
    const client = await connectInMemory(plain);
    const refused = await client.callTool({ name: 'place', arguments: { lines: lines(1_001) } });
    expect((refused.content as Array<{ text: string }>)[0].text).to.include('lines: must contain at most 1000 items (got 1001)');
    await client.close();
    await plain.close();
  });
});
