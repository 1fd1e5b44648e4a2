// MCP Apps (io.modelcontextprotocol/ui): a tool with a View, an app-only tool, a View that
// declares what it may reach, and forms as an app.
// Included in docs/guide/apps.md; run by spec/docs/examples/apps.spec.ts.
import 'reflect-metadata';
// #region view
/** The View: one HTML document. The placeholder script becomes the inlined app SDK. */
export const DICE_VIEW = `<!doctype html>
<html>
<head>
  <script data-mcp-apps-sdk></script>
</head>
<body>
  <output id="dice">…</output>
  <button id="again" disabled>Roll again</button>
  <script type="module">
    const { App } = globalThis.McpApps; // the SDK's exports
    const app = new App({ name: 'dice-view', version: '1.0.0' }, {});
    const output = document.getElementById('dice');
    const button = document.getElementById('again');
    let sides = 6;
    const show = (result) => { output.textContent = result.structuredContent.rolls.join(' '); sides = result.structuredContent.sides; };
    app.ontoolresult = (result) => { show(result); button.disabled = false; };
    button.onclick = async () => show(await app.callServerTool({ name: 'reroll', arguments: { sides } }));
    await app.connect();
  </script>
</body>
</html>`;
// #endregion view

// #region tools
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Field, Tool, ToolUi } from 'phantom-mcp';

export class DiceArgs {
  @Field({ description: 'Sides of each die (default 6)' })
  @IsOptional() @IsInt() @Min(2) @Max(100)
  sides?: number;
}

const rolled = (sides: number, rolls: number[]) => ({
  content: [{ type: 'text' as const, text: `Rolled ${rolls.join(' and ')} on d${sides}.` }], // for the model, and hosts without Apps
  structuredContent: { sides, rolls }, // for the View
});
const roll = (sides: number) => [1, 2].map(() => 1 + Math.floor(Math.random() * sides));

export class DiceTools {
  @Tool({ name: 'roll_dice', description: 'Roll two dice and show them', readOnly: true })
  @ToolUi({ html: DICE_VIEW, resourceUri: 'ui://dice/view.html', prefersBorder: true })
  rollDice(args: DiceArgs) {
    return rolled(args.sides ?? 6, roll(args.sides ?? 6));
  }

  @Tool({ description: 'Roll the dice again (the View\'s button)', readOnly: true })
  @ToolUi({ resourceUri: 'ui://dice/view.html', visibility: ['app'] }) // only the View calls it
  reroll(args: DiceArgs) {
    return rolled(args.sides ?? 6, roll(args.sides ?? 6));
  }
}
// #endregion tools

// #region csp
export class MapTools {
  @Tool({ name: 'show_map', description: 'Show a map around the user', readOnly: true })
  @ToolUi({
    html: '<!doctype html><html><body><div id="map"></div></body></html>',
    csp: {
      connectDomains: ['https://tiles.example.com'], // fetch and WebSocket
      resourceDomains: ['https://*.example-cdn.com'], // scripts, styles, images, fonts, media
    },
    permissions: { geolocation: {} }, // a request: the host may refuse it
  })
  showMap() {
    return 'A map is shown to the user.';
  }
}
// #endregion csp

// #region forms
import { IsIn } from 'class-validator';
import { Context, Elicit } from 'phantom-mcp';

@Elicit({ message: 'Which room?' })
export class RoomChoice {
  @Field({ title: 'Room' })
  @IsIn(['Ada', 'Grace', 'Hopper'])
  room!: string;
}

export class RoomTools {
  @Tool({ name: 'book_room', description: 'Book a meeting room' })
  async bookRoom(_args: object, ctx: Context) {
    const choice = await ctx.elicit(RoomChoice); // a form, or a form in the app
    return choice.action === 'accept' ? `Booked ${choice.content.room}.` : 'Nothing booked.';
  }

  @Tool({ name: 'release_room', description: 'Release a room you booked' })
  async releaseRoom(_args: object, ctx: Context) {
    const choice = await ctx.elicit(RoomChoice, { fallback: false }); // never asked through the app
    return choice.action === 'accept' ? `Released ${choice.content.room}.` : `Nothing released (${choice.action}).`;
  }
}
// #endregion forms

// #region server
import { apps, PhantomServer } from 'phantom-mcp';

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'office',
    version: '1.0.0',
    providers: [DiceTools, MapTools, RoomTools],
    extensions: [apps({ forms: true })], // forms as an app for every tool without a View of its own
  });
}
// #endregion server
