import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { IsEmail, IsIn, IsString } from 'class-validator';
import { Elicit, Field, PhantomServer, Tool, ToolResult, type Context } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** The seed's own example form, as a class: the answer comes back as a validated instance. */
@Elicit({ message: 'What is your info?' })
export class UserInfo {
  @Field({ title: 'Your name' })
  @IsString()
  name!: string;

  @Field({ title: 'Email' })
  @IsEmail()
  email!: string;

  @Field({ title: 'Role', oneOf: { dev: 'Developer', pm: 'Product Manager' } })
  @IsIn(['dev', 'pm'])
  role!: string;
}

/** Form and URL elicitation, with the fallbacks a real client landscape needs. */
export class GreeterTools {
  @Tool({ description: 'Asks who you are, then greets you' })
  async greet(_args: object, ctx: Context) {
    const answer = await ctx.elicit(UserInfo);
    switch (answer.action) {
      case 'accept': return `Hello ${answer.content.name}`;
      case 'unsupported': return 'Hello stranger';
      case 'timeout': return ToolResult.error('Timed out waiting for your answer');
      default: return ToolResult.error('Rejected');
    }
  }

  @Tool({ description: 'Sends you to a web page to sign in' })
  async authenticate(_args: object, ctx: Context) {
    const elicitationId = randomUUID();
    const answer = await ctx.elicit(Elicit.url({
      message: 'Please sign in',
      url: `https://example.com/oauth?elicitation_id=${elicitationId}`,
      elicitationId,
    }));
    if (answer.action === 'accept') return 'Authenticated';
    if (answer.action === 'unsupported') return ToolResult.error('URL elicitation not supported');
    return ToolResult.error('Auth rejected');
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'greeter', version: '1.0.0', providers: [GreeterTools], forms: [UserInfo], store: storeFromEnv() });
}

if (require.main === module) void runSample(createServer());
