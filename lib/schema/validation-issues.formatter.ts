import type { ValidationError } from 'class-validator';

/**
 * Flattens class-validator's error tree into one line per failing property, written for the
 * model that sent the arguments: `days: must not be greater than 14`, `address.zip: must be a
 * string`, `stops[1].city: is required`. All of a property's failures share its line.
 */
export function formatValidationErrors(errors: readonly ValidationError[]): string[] {
  const lines: string[] = [];
  const walk = (error: ValidationError, parentPath: string, parentValue: unknown): void => {
    const path = !parentPath ? error.property : Array.isArray(parentValue) ? `${parentPath}[${error.property}]` : `${parentPath}.${error.property}`;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length) {
      // A missing value fails every rule at once; "is required" is the one thing worth saying.
      lines.push(error.value === undefined ? `${path}: is required` : `${path}: ${messages.map((m) => tidy(m, error.property)).join('; ')}`);
    }
    for (const child of error.children ?? []) walk(child, path, error.value);
  };
  for (const error of errors) walk(error, '', undefined);
  return lines;
}

/**
 * class-validator's default messages start with the property name ("days must not be ..."),
 * which the line already carries in its path; drop it so the path is said once.
 */
function tidy(message: string, property: string): string {
  const name = property.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message
    .replace(new RegExp(`^(?:nested property )?${name} `), '')
    .replace(new RegExp(`^each value in (?:nested property )?${name} `), 'each value ');
}

/** The path an issue line is about: `stops[1].city` for `stops[1].city: is required`. */
export function issuePath(line: string): string {
  const at = line.indexOf(': ');
  return at < 0 ? line : line.slice(0, at);
}
