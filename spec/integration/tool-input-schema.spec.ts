import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DefinitionError, PhantomServer, SILENT_DIAGNOSTICS, Tool, type JsonObject } from '../../lib';
import { connect } from 'phantom-mcp/testing';

const BOOKING: JsonObject = {
  type: 'object',
  properties: {
    room: { type: 'string', enum: ['blue', 'red'] },
    seats: { type: 'integer', minimum: 1 },
    guests: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  },
  required: ['room'],
  additionalProperties: false,
};

class Bookings {
  @Tool({ description: 'Books a room', inputSchema: BOOKING })
  book(args: object) { return `booked ${JSON.stringify(args)}`; }

  @Tool({
    description: 'Draft-07 schema',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  })
  legacy(args: object) { return `legacy ${JSON.stringify(args)}`; }
}

describe('PhantomServer', () => {
  describe('tools/call', () => {
    context('when a tool has a hand-written inputSchema', () => {
      let client: Client;
      let server: PhantomServer;

      before(async () => {
        server = new PhantomServer({ name: 'bookings', version: '1', providers: [Bookings], diagnostics: SILENT_DIAGNOSTICS });
        client = await connect(server);
      });
      after(async () => {
        await client.close();
        await server.close();
      });

      const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[])[0].text;

      it('passes conforming arguments to the handler as sent', async () => {
        const result = await client.callTool({ name: 'book', arguments: { room: 'blue', seats: 2, guests: [{ name: 'Ada' }] } });
        expect(result.isError).to.equal(undefined);
        expect(textOf(result)).to.equal('booked {"room":"blue","seats":2,"guests":[{"name":"Ada"}]}');
      });

      it('refuses arguments that break the schema, one line per problem, as DTO validation does', async () => {
        const result = await client.callTool({ name: 'book', arguments: { room: 'green', seats: 0, guests: [{}], pets: 1 } });
        expect(result.isError).to.equal(true);
        expect(textOf(result).split('\n')).to.deep.equal([
          'Invalid arguments for tool "book":',
          '- pets: is not allowed',
          '- room: must be one of: "blue", "red"',
          '- seats: must be >= 1',
          '- guests[0].name: is required',
        ]);
      });

      it('refuses missing arguments when the schema requires some', async () => {
        const result = await client.callTool({ name: 'book' });
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.include('- room: is required');
      });

      it('validates a schema that declares draft-07 by that draft', async () => {
        expect(textOf(await client.callTool({ name: 'legacy', arguments: { n: 1 } }))).to.equal('legacy {"n":1}');
        expect(textOf(await client.callTool({ name: 'legacy', arguments: { n: 'one' } }))).to.include('- n: must be number');
      });
    });

    context('when a hand-written inputSchema is not a valid schema', () => {
      class Broken {
        @Tool({ description: 'x', inputSchema: { type: 'object', properties: { a: { type: 'strin' } } } })
        typo(args: object) { return args; }

        @Tool({ description: 'x', inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } })
        old(args: object) { return args; }
      }

      it('fails at start-up, where the schema is compiled once', () => {
        let problems: readonly string[] = [];
        try {
          new PhantomServer({ name: 'b', version: '1', providers: [Broken] });
        } catch (error) {
          expect(error).to.be.instanceOf(DefinitionError);
          problems = (error as DefinitionError).problems;
        }
        expect(problems).to.have.length(2);
        expect(problems[0]).to.match(/^Broken#typo: "inputSchema": schema is invalid: data\/properties\/a\/type must be equal to one of the allowed values/);
        expect(problems[1]).to.match(/^Broken#old: "inputSchema": \$schema "http:\/\/json-schema.org\/draft-04\/schema#" is not supported/);
      });
    });
  });
});
