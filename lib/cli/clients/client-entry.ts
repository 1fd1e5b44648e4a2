import type { EnvironmentVariable } from '../../index';
import { CommandError } from '../command';
import type { AskStyle, ClientSpec } from './client-table';
import type { ServerEntry, StdioEntry } from './server-entry';

/** A VS Code input: asked of the user when the server starts, referenced as `${input:<id>}`. */
export interface PromptInput {
  readonly type: 'promptString';
  readonly id: string;
  readonly description: string;
  /** Masked while typed, and kept in VS Code's secret storage. */
  readonly password: boolean;
}

/** A server's entry as one client's file holds it. */
export interface ClientEntry {
  /** The entry under the server's name: plain strings, string arrays and string maps (JSON, or a TOML table). */
  readonly entry: Readonly<Record<string, unknown>>;
  /** VS Code `inputs` the entry refers to (empty for other clients). */
  readonly inputs: readonly PromptInput[];
  /** What the user still has to do for the server to start (a variable to set or fill in), a line each. */
  readonly notes: readonly string[];
}

/** What a client does with one variable it must supply: an `env` value, a name passed on, an input, and what to tell the user. */
interface Asked {
  readonly env?: string;
  readonly forward?: boolean;
  readonly input?: PromptInput;
  readonly note: string;
}

type Ask = (variable: EnvironmentVariable, server: string, client: ClientSpec) => Asked;

/** One way per {@link AskStyle}. */
const ASKS: Readonly<Record<AskStyle, Ask>> = {
  prompt: (variable, server, client) => {
    const input: PromptInput = { type: 'promptString', id: `${server}-${variable.name}`, description: variable.description, password: variable.secret === true };
    return { env: `\${input:${input.id}}`, input, note: `${client.label} asks for ${variable.name} when it first starts the server (input "${input.id}"${input.password ? ', masked' : ''})` };
  },
  shell: (variable, _server, client) => ({
    env: `\${${variable.name}}`,
    note: `${variable.name}: set it in the environment ${client.label} starts from (the file says \${${variable.name}})`,
  }),
  env: (variable, _server, client) => ({
    env: `\${env:${variable.name}}`,
    note: `${variable.name}: set it in the environment ${client.label} starts from (the file says \${env:${variable.name}})`,
  }),
  forward: (variable, _server, client) => ({
    forward: true,
    note: `${variable.name}: set it in the environment ${client.label} starts from (env_vars passes it on)`,
  }),
  none: (variable, _server, client) => ({
    note: `${variable.name}: ${client.label} cannot take it from elsewhere; add it under "env" in the file yourself${variable.secret ? ' (a secret, in a plain file: a desktop bundle keeps it in the system keychain instead)' : ''}`,
  }),
};

/** The entry for one client: its shape, the variables it holds or asks for, and what is left to the user. */
export function clientEntry(client: ClientSpec, server: string, entry: ServerEntry): ClientEntry {
  if (entry.transport === 'http') {
    if (!client.http) throw new CommandError(client.noHttp ?? `${client.label} takes no HTTP servers`);
    return { entry: client.http(entry.url), inputs: [], notes: [] };
  }
  return stdio(client, server, entry);
}

function stdio(client: ClientSpec, server: string, entry: StdioEntry): ClientEntry {
  // Pairs, made an object by Object.fromEntries: a variable named __proto__ stays a key.
  const env: [string, string][] = [];
  const forward: string[] = [];
  const inputs: PromptInput[] = [];
  const notes: string[] = [];
  for (const plan of entry.environment) {
    const { name, description } = plan.variable;
    if (plan.kind === 'value') env.push([name, plan.value]);
    if (plan.kind === 'skip') notes.push(`${name} (optional: ${description}) is left out; add it under "env" if you need it`);
    if (plan.kind !== 'ask') continue;
    const asked = ASKS[client.ask](plan.variable, server, client);
    if (asked.env !== undefined) env.push([name, asked.env]);
    if (asked.forward) forward.push(name);
    if (asked.input) inputs.push(asked.input);
    notes.push(`${asked.note}: ${description}`);
  }
  return {
    entry: {
      ...(client.stdioType ? { type: 'stdio' } : {}),
      command: entry.command,
      args: [...entry.args],
      ...(forward.length ? { env_vars: forward } : {}),
      ...(env.length ? { env: Object.fromEntries(env) } : {}),
    },
    inputs,
    notes,
  };
}
