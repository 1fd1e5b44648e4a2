import 'reflect-metadata';
import { join } from 'node:path';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { apps, Context, Elicit, Field, PhantomServer, Tool, ToolUi } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** The View: beside this file's source (the build does not copy it into dist/). */
export const COUNTER_VIEW = join(__dirname, '../../../samples/11-apps/counter.html');

export class StartArgs {
  @Field({ description: 'Where the counter starts (default 0)' })
  @IsOptional() @IsInt() @Min(0) @Max(1_000_000)
  start?: number;
}

export class CountArgs {
  @Field({ description: 'The count shown now' })
  @IsInt() @Min(0) @Max(1_000_000)
  count!: number;
}

/** What each tool answers: text for the model (and hosts without Apps), data for the View. */
const counterAt = (count: number) => ({ content: [{ type: 'text' as const, text: `The counter is at ${count}.` }], structuredContent: { count } });

/**
 * A counter the user increments in the host's UI. `show_counter` is what the model calls; a host
 * with MCP Apps renders its View (counter.html) with the result, and the View's button calls
 * `increment`, a tool only the View may call (`visibility: ['app']`). The count travels in the
 * calls, so any replica can answer any of them.
 */
export class CounterTools {
  @Tool({ name: 'show_counter', description: 'Show a counter the user can increment', readOnly: true })
  @ToolUi({ file: COUNTER_VIEW, resourceUri: 'ui://counter/view.html', name: 'Counter', prefersBorder: true })
  showCounter(args: StartArgs) {
    return counterAt(args.start ?? 0);
  }

  @Tool({ description: 'Add one to the counter', readOnly: true })
  @ToolUi({ resourceUri: 'ui://counter/view.html', visibility: ['app'] })
  increment(args: CountArgs) {
    return counterAt(args.count + 1);
  }
}

@Elicit({ message: 'How many people?' })
export class PartySize {
  @Field({ title: 'Party size', description: 'From 1 to 12' })
  @IsInt() @Min(1) @Max(12)
  people!: number;
}

@Elicit({ message: 'Which day?' })
export class BookingDay {
  @Field({ title: 'Day', format: 'date' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'day must be a date (YYYY-MM-DD)' })
  day!: string;
}

/**
 * A tool that asks two `@Elicit` forms. A client that elicits gets them as elicitation requests;
 * a host that renders Views but cannot elicit gets them as an app (`@ToolUi({ forms: true })`):
 * the call ends with "the user is asked...", the framework's form View shows the form, and each
 * answer runs `book_table` again from the top with the answers so far. Nothing happens before
 * the last answer, so the re-runs are harmless (side effects before `ctx.elicit` must be idempotent).
 */
export class BookingTools {
  @Tool({ name: 'book_table', description: 'Book a table: asks the party size and the day' })
  @ToolUi({ forms: true })
  async bookTable(_args: object, ctx: Context) {
    const party = await ctx.elicit(PartySize);
    if (party.action !== 'accept') return `No table booked (${party.action}).`;
    const day = await ctx.elicit(BookingDay);
    if (day.action !== 'accept') return `No table booked (${day.action}).`;
    return `Booked a table for ${party.content.people} on ${day.content.day}.`;
  }
}

/** MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool with an interactive View, and forms as an app. */
export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'counter',
    version: '1.0.0',
    providers: [CounterTools, BookingTools],
    extensions: [apps()],
    store: storeFromEnv(),
  });
}

if (require.main === module) void runSample(createServer());
