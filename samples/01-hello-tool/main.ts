import 'reflect-metadata';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, PhantomServer, Tool, type Context } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

export class HelloArgs {
  @Field({ description: 'Who to greet', examples: ['Ada'] })
  @IsString()
  @MaxLength(100)
  name!: string;

  @Field({ description: 'How to greet them' })
  @IsOptional()
  @IsString()
  greeting = 'Hello';
}

/** The smallest useful server: one tool, its arguments validated by a DTO. */
export class HelloTools {
  @Tool({ description: 'Greets someone by name', readOnly: true, idempotent: true })
  hello(args: HelloArgs): string {
    return `${args.greeting}, ${args.name}!`;
  }

  @Tool({ description: 'Reports the server time as structured content', readOnly: true })
  now(_args: object, ctx: Context) {
    return { iso: new Date().toISOString(), requestId: String(ctx.requestId ?? '') };
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'hello', version: '1.0.0', providers: [HelloTools], store: storeFromEnv() });
}

if (require.main === module) void runSample(createServer());
