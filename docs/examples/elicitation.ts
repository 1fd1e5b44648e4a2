// Elicitation: a form as a DTO, asked from a tool; the same forms shown as an app.
// Included in docs/guide/elicitation.md; run by spec/docs/examples.spec.ts.
import 'reflect-metadata';
// #region form
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { Elicit, Field } from 'phantom-mcp';

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
// #endregion form

// #region tool
import { Context, Tool, ToolUi } from 'phantom-mcp';

export class BookingTools {
  @Tool({ name: 'book_table', description: 'Book a table: asks the party size and the day' })
  @ToolUi({ forms: true }) // hosts that render Views but cannot elicit get the forms as an app
  async bookTable(_args: object, ctx: Context) {
    const party = await ctx.elicit(PartySize); // validated PartySize on accept
    if (party.action !== 'accept') return `No table booked (${party.action}).`;
    const day = await ctx.elicit(BookingDay);
    if (day.action !== 'accept') return `No table booked (${day.action}).`;
    return `Booked a table for ${party.content.people} on ${day.content.day}.`;
  }
}
// #endregion tool

// #region server
import { apps, PhantomServer } from 'phantom-mcp';

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'bookings',
    version: '1.0.0',
    providers: [BookingTools],
    extensions: [apps()], // MCP Apps: needed for the forms-as-app fallback
  });
}
// #endregion server
