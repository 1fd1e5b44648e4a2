import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Type } from 'class-transformer';
import { IsEnum, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { PhantomServer, Prompt, SILENT_DIAGNOSTICS, Tool, userText } from '../../lib';
import { connect } from 'phantom-mcp/testing';

enum Mood { Calm = 'calm', Angry = 'angry' }
enum Level { Low, High }

class ToneArgs {
  @IsEnum(['formal', 'casual']) tone!: string;
}

class ReplyArgs extends ToneArgs {
  @IsOptional() @IsEnum(Mood) mood?: Mood;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsEnum({ '1st': 'gold', '2nd': 'silver' }) rank?: string;
  @IsOptional() @IsEnum(['red', 'blue'], { each: true }) colours?: string[];
  @IsOptional() @IsEnum(Level, { each: true }) levels?: Level[];
  @IsOptional() @IsIn(['short', 'long']) size?: string;
  @IsOptional() @IsEnum(['x', 'y'], { message: 'pick x or y' }) axis?: string;
}

class LevelArgs {
  @IsOptional() @IsEnum(Level) level?: Level;
}

class NestArgs {
  @ValidateNested() @Type(() => LevelArgs) inner!: LevelArgs;
}

class SearchArgs {
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() query?: string;
}

class Writer {
  @Tool({ description: 'Writes a reply' })
  reply(args: ReplyArgs) { return `replied ${args.tone}`; }

  @Prompt({ description: 'Asks for a reply' })
  ask(args: ToneArgs) { return userText(`reply ${args.tone}`); }

  @Tool({ description: 'Takes a nested level' })
  nest(args: NestArgs) { return `level ${args.inner.level}`; }

  @Tool({ description: 'Searches' })
  search(args: SearchArgs) { return `found ${args.limit}`; }

  @Prompt({ description: 'Asks for a search' })
  find(args: SearchArgs) { return userText(`find ${args.limit}`); }
}

describe('PhantomServer', () => {
  let client: Client;
  let server: PhantomServer;

  before(async () => {
    server = new PhantomServer({ name: 'writer', version: '1', providers: [Writer], diagnostics: SILENT_DIAGNOSTICS });
    client = await connect(server);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  /** The issue lines of a refused tool call, without the heading. */
  const toolIssues = async (name: string, args: Record<string, unknown>): Promise<string[]> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).to.equal(true);
    return (result.content as { text: string }[])[0].text.split('\n').slice(1);
  };
  /** The issue lines of a refused prompts/get, without the heading. */
  const promptIssues = async (name: string, args: Record<string, string>): Promise<string[]> => {
    const failure = await client.getPrompt({ name, arguments: args }).then(() => undefined, (error: McpError) => error);
    expect(failure?.code).to.equal(-32602);
    return failure!.message.split('\n').slice(1);
  };

  describe('tools/call', () => {
    context('when an @IsEnum value is not allowed', () => {
      it('names the values of an array', async () => {
        expect(await toolIssues('reply', { tone: 'rude' })).to.deep.equal(['- tone: must be one of the following values: formal, casual']);
      });

      it('names the values of a string enum, a numeric enum and a plain object', async () => {
        expect(await toolIssues('reply', { tone: 'formal', mood: 'sad', level: 7, rank: 'bronze' })).to.deep.equal([
          '- mood: must be one of the following values: calm, angry',
          '- level: must be one of the following values: 0, 1',
          '- rank: must be one of the following values: gold, silver',
        ]);
      });

      it('refuses the name of a numeric enum\'s member, which the schema does not list', async () => {
        expect(await toolIssues('reply', { tone: 'formal', level: 'High', levels: [0, 'Low'] })).to.deep.equal([
          '- level: must be one of the following values: 0, 1',
          '- levels: each value must be one of the following values: 0, 1',
        ]);
        expect(await toolIssues('nest', { inner: { level: 'Low' } })).to.deep.equal(['- inner.level: must be one of the following values: 0, 1']);
      });

      it('names them for each element of a list', async () => {
        expect(await toolIssues('reply', { tone: 'formal', colours: ['red', 'green'] })).to.deep.equal([
          '- colours: each value must be one of the following values: red, blue',
        ]);
      });

      it('words it as @IsIn does, and keeps a message the author wrote', async () => {
        expect(await toolIssues('reply', { tone: 'formal', size: 'huge', axis: 'z' })).to.deep.equal([
          '- size: must be one of the following values: short, long',
          '- axis: pick x or y',
        ]);
      });
    });

    context('when the tool is listed', () => {
      it('advertises as `enum` the values the messages name, for every form of @IsEnum', async () => {
        const { tools } = await client.listTools();
        const properties = tools.find((t) => t.name === 'reply')!.inputSchema.properties as Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }>;
        expect(properties.tone.enum).to.deep.equal(['formal', 'casual']);
        expect(properties.mood.enum).to.deep.equal(['calm', 'angry']);
        expect(properties.level.enum).to.deep.equal([0, 1]);
        expect(properties.rank.enum).to.deep.equal(['gold', 'silver']);
        expect(properties.colours.items?.enum).to.deep.equal(['red', 'blue']);
      });
    });

    context('when a value has the wrong type', () => {
      it('reports the type alone, not the range it cannot be checked against', async () => {
        expect(await toolIssues('search', { limit: '5' })).to.deep.equal(['- limit: must be an integer number']);
      });

      it('still reports every range a value of the right type breaks', async () => {
        expect(await toolIssues('search', { limit: 500, query: 3 })).to.deep.equal(['- limit: must not be greater than 100', '- query: must be a string']);
      });
    });
  });

  describe('prompts/get', () => {
    context('when an @IsEnum value is not allowed', () => {
      it('names the values', async () => {
        expect(await promptIssues('ask', { tone: 'rude' })).to.deep.equal(['- tone: must be one of the following values: formal, casual']);
      });
    });

    context('when a value cannot be read as the argument\'s type', () => {
      it('reports the type alone', async () => {
        expect(await promptIssues('find', { limit: 'five' })).to.deep.equal(['- limit: must be an integer number']);
      });
    });
  });
});
