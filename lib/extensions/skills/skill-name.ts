/** The longest skill name the Agent Skills specification allows. */
const MAX_NAME_LENGTH = 64;

const NAME_CHARACTERS = /^[a-z0-9-]+$/;

/**
 * What is wrong with `name` as a skill name (Agent Skills naming rules: 1 to 64 characters of
 * `a-z`, `0-9` and `-`, no leading, trailing or doubled `-`), or `undefined` when it is valid.
 */
export function skillNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'a skill name must be a non-empty string';
  if (name.length > MAX_NAME_LENGTH) return `skill name "${name}" is longer than ${MAX_NAME_LENGTH} characters`;
  if (!NAME_CHARACTERS.test(name)) return `skill name "${name}" may hold only lowercase letters, digits and "-"`;
  if (name.startsWith('-') || name.endsWith('-')) return `skill name "${name}" must not start or end with "-"`;
  if (name.includes('--')) return `skill name "${name}" must not hold "--"`;
  return undefined;
}
