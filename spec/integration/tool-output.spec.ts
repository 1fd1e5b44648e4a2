import 'reflect-metadata';
import { expect } from 'chai';
import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PhantomServer, Tool, ToolError, ToolResult, type Diagnostics } from '../../lib';
import { connect } from 'phantom-mcp/testing';

class Station { @IsString() id!: string; }

class Weather {
  @IsNumber() temperature!: number;
  @IsIn(['C', 'F']) unit!: string;
  @IsOptional() @IsDateString() observed?: string;
  @IsOptional() @ValidateNested() @Type(() => Station) station?: Station;
}

class WeatherTools {
  @Tool({ description: 'Conforms', output: Weather })
  good(): Weather { return { temperature: 21, unit: 'C', observed: '2024-05-01', station: { id: 'OSL' } }; }

  @Tool({ description: 'An instance of the DTO', output: Weather })
  instance(): Weather { return Object.assign(new Weather(), { temperature: 5, unit: 'F', observed: undefined }); }

  @Tool({ description: 'An undeclared property', output: Weather })
  extra() { return { temperature: 21, unit: 'C', wind: 3 }; }

  @Tool({ description: 'An undeclared property, nested', output: Weather })
  nestedExtra() { return { temperature: 21, unit: 'C', station: { id: 'OSL', secret: 'x' } }; }

  @Tool({ description: 'A wrong type', output: Weather })
  wrongType() { return { temperature: 'warm', unit: 'C' } as unknown as Weather; }

  @Tool({ description: 'Breaks a class-validator rule', output: Weather })
  badUnit(): Weather { return { temperature: 1, unit: 'K' }; }

  @Tool({ description: 'No structured content at all', output: Weather })
  text() { return 'sunny' as unknown as Weather; }

  @Tool({ description: 'Fails as a tool', output: Weather })
  failing(): Weather { throw new ToolError('No such station'); }

  @Tool({ description: 'Returns an error result', output: Weather })
  errorResult() { return ToolResult.error('No such station'); }
}

describe('PhantomServer', () => {
  describe('tools/call', () => {
    context('when a tool declares output: Dto', () => {
      let client: Client;
      let server: PhantomServer;
      const reported: string[] = [];
      const diagnostics: Diagnostics = { error: (message) => reported.push(message), warn: () => {} };

      before(async () => {
        server = new PhantomServer({ name: 'weather', version: '1', providers: [WeatherTools], diagnostics });
        client = await connect(server);
        await client.listTools(); // the official client validates structured content from here on
      });
      after(async () => {
        await client.close();
        await server.close();
      });
      beforeEach(() => { reported.length = 0; });

      const call = (name: string) => client.callTool({ name, arguments: {} });
      const textOf = (result: Awaited<ReturnType<typeof call>>) => (result.content as { text: string }[])[0].text;

      it('sends a conforming result, a plain date included, to the official client unchanged', async () => {
        const result = await call('good');
        expect(result.isError).to.equal(undefined);
        expect(result.structuredContent).to.deep.equal({ temperature: 21, unit: 'C', observed: '2024-05-01', station: { id: 'OSL' } });
      });

      it('accepts an instance of the DTO with an unset optional property', async () => {
        expect((await call('instance')).structuredContent).to.deep.equal({ temperature: 5, unit: 'F' });
      });

      it('answers an undeclared property with an isError result naming it, where the client used to throw', async () => {
        const result = await call('extra');
        expect(result.isError).to.equal(true);
        expect(result).not.to.have.property('structuredContent');
        expect(textOf(result)).to.equal('Tool "extra" returned a result that does not match its output schema (wind).');
      });

      it('applies additionalProperties: false at every depth, as the advertised schema does', async () => {
        const result = await call('nestedExtra');
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.include('(station.secret)');
      });

      it('names a property of the wrong type, with the detail in diagnostics', async () => {
        const result = await call('wrongType');
        expect(textOf(result)).to.include('(temperature)');
        expect(reported).to.have.length(1);
        expect(reported[0]).to.match(/^WeatherTools#wrongType returned a result that does not match its output schema:\n {2}- temperature: /);
      });

      it('checks the class-validator rules of the DTO', async () => {
        const result = await call('badUnit');
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.include('(unit)');
        expect(reported[0]).to.include('unit: must be one of the following values: C, F');
      });

      it('answers a result without structured content with an isError result, as the spec requires structured results', async () => {
        const result = await call('text');
        expect(result.isError).to.equal(true);
        expect(textOf(result)).to.include('(structuredContent)');
      });

      it('leaves tool errors alone: they carry no structured content', async () => {
        for (const name of ['failing', 'errorResult']) {
          const result = await call(name);
          expect(result.isError).to.equal(true);
          expect(textOf(result)).to.equal('No such station');
        }
        expect(reported).to.deep.equal([]);
      });
    });
  });
});
