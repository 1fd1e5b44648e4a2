// Prompts: an argument DTO, completion, the kinds of message a prompt returns, a refusal.
// Included in docs/guide/prompts.md; run by spec/docs/examples/prompts.spec.ts.
import 'reflect-metadata';
// #region args
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Field } from 'phantom-mcp';

export const STYLES = ['budget', 'comfort', 'luxury'];

export class TripArgs {
  @Field({ title: 'City', description: 'Where to go' })
  @IsString()
  city!: string;

  @Field({ description: 'How many days' })
  @IsOptional() @IsInt() @Min(1) @Max(30)
  days = 3; // sent as "5", received as 5

  @Field({ description: 'Travel style' })
  @IsOptional() @IsIn(STYLES)
  style?: string;
}
// #endregion args

// #region prompt
import { Prompt, userText } from 'phantom-mcp';

export class TripPrompts {
  @Prompt({
    description: 'Plan a trip',
    complete: { city: ['Paris', 'Prague', 'Porto', 'Oslo'], style: 'stylesFor' },
  })
  plan(args: TripArgs) {
    const style = args.style ? `, ${args.style} style` : '';
    return userText(`Plan ${args.days} days in ${args.city}${style}.`);
  }

  /** Called as (what the user typed, { arguments: the other arguments so far, ctx }). */
  stylesFor(typed: string, { arguments: chosen }: { arguments: Record<string, string> }): string[] {
    const styles = chosen.city === 'Oslo' ? STYLES.filter((style) => style !== 'budget') : STYLES;
    return styles.filter((style) => style.startsWith(typed));
  }
}
// #endregion prompt

// #region messages
import { assistantText, Content, promptMessage } from 'phantom-mcp';

export class ConversationPrompts {
  @Prompt({ description: 'A short conversation to continue' })
  smallTalk() {
    return [userText('Hi! Where should I travel?'), assistantText('Where have you been so far?')];
  }

  @Prompt({ description: 'Ask about a guide, embedded as a resource' })
  withGuide() {
    return [
      promptMessage('user', Content.resource({ uri: 'guide://paris', mimeType: 'text/plain', text: 'Paris: museums, cafés.' })),
      userText('What should I see first?'),
    ];
  }
}
// #endregion messages

// #region refusal
import { ToolError } from 'phantom-mcp';

export class RouteArgs {
  @Field({ description: 'Leaving from' }) @IsString() from!: string;
  @Field({ description: 'Going to' }) @IsString() to!: string;
}

export class RoutePrompts {
  @Prompt({ description: 'Compare ways to travel between two cities' })
  route(args: RouteArgs) {
    // -32602 with this message:
    if (args.from === args.to) throw new ToolError('Pick two different cities');
    return userText(`Compare train, bus and plane from ${args.from} to ${args.to}.`);
  }
}
// #endregion refusal

// #region server
import { PhantomServer } from 'phantom-mcp';

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'travel',
    version: '1.0.0',
    providers: [TripPrompts, ConversationPrompts, RoutePrompts],
  });
}
// #endregion server
