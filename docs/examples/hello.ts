// The getting-started server: one tool whose arguments are a validated DTO.
// Included in docs/guide/getting-started.md; run by spec/docs/examples.spec.ts.
// #region server
import 'reflect-metadata';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, PhantomServer, StdioTransport, Tool } from 'phantom-mcp';

export class GreetArgs {
  @Field({ description: 'Who to greet', examples: ['Ada'] })
  @IsString() @MaxLength(100)
  name!: string;

  @Field({ description: 'How to greet them' })
  @IsOptional() @IsString()
  greeting = 'Hello';
}

export class Greeter {
  @Tool({ description: 'Greets someone by name', readOnly: true })
  greet(args: GreetArgs): string {
    return `${args.greeting}, ${args.name}!`;
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'hello', version: '1.0.0', providers: [Greeter] });
}

if (require.main === module) {
  createServer().connect(new StdioTransport()).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
// #endregion server
