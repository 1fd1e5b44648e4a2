import type { EnvironmentVariable } from './server-options';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FORMATS: ReadonlySet<string> = new Set(['string', 'number', 'boolean', 'filepath']);

/** What is wrong with the declared environment variables (`PhantomServerOptions.environment`), each problem one line. */
export function environmentProblems(variables: readonly EnvironmentVariable[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const variable of variables) {
    const name = typeof variable?.name === 'string' ? variable.name : '';
    const where = `environment variable ${JSON.stringify(name)}`;
    if (!NAME.test(name)) problems.push(`${where}: a name is letters, digits and underscores, not starting with a digit`);
    if (seen.has(name)) problems.push(`${where} is declared twice`);
    seen.add(name);
    if (typeof variable?.description !== 'string' || variable.description.trim() === '') problems.push(`${where} needs a description (installers show it)`);
    if (variable?.format !== undefined && !FORMATS.has(variable.format)) problems.push(`${where}: format must be string, number, boolean or filepath`);
    if (variable?.choices !== undefined && variable.default !== undefined && !variable.choices.includes(variable.default)) {
      problems.push(`${where}: its default ${JSON.stringify(variable.default)} is not one of its choices`);
    }
  }
  return problems;
}
