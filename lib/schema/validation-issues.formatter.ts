import type { ValidationError } from 'class-validator';
import { readClassProperties } from './class-property.reader';
import { enumValues } from './enum-values';

/**
 * Rules that say what kind of value a property holds. When one of them fails, the property's
 * other failures (a range, a length) are noise: `"5"` is not "greater than 100", it is not a
 * number, and that is the one thing the model has to fix.
 */
const TYPE_RULES: ReadonlySet<string> = new Set(['isString', 'isNumber', 'isInt', 'isBoolean', 'isArray', 'isObject', 'isDate']);

/** How a rule's failure is worded when class-validator's own message says too little. */
const REWORDINGS: Readonly<Record<string, (message: string, error: ValidationError) => string>> = Object.freeze({
  isEnum: withEnumValues,
});

/**
 * Flattens class-validator's error tree into one line per failing property, written for the
 * model that sent the arguments: `days: must not be greater than 14`, `address.zip: must be a
 * string`, `stops[1].city: is required`. All of a property's failures share its line, except
 * that a failed type rule is said alone. Run `validate` with `validationError.target` on, so an
 * `@IsEnum` failure can name its values.
 */
export function formatValidationErrors(errors: readonly ValidationError[]): string[] {
  const lines: string[] = [];
  const walk = (error: ValidationError, parentPath: string, parentValue: unknown): void => {
    const path = !parentPath ? error.property : Array.isArray(parentValue) ? `${parentPath}[${error.property}]` : `${parentPath}.${error.property}`;
    const messages = messagesOf(error);
    if (messages.length) {
      // A missing value fails every rule at once; "is required" is the one thing worth saying.
      lines.push(error.value === undefined ? `${path}: is required` : `${path}: ${messages.map((m) => tidy(m, error.property)).join('; ')}`);
    }
    for (const child of error.children ?? []) walk(child, path, error.value);
  };
  for (const error of errors) walk(error, '', undefined);
  return lines;
}

/** The messages worth saying for one property: its failed type rules alone when there are any. */
function messagesOf(error: ValidationError): string[] {
  const constraints = error.constraints ?? {};
  const failed = Object.keys(constraints);
  const types = failed.filter((rule) => TYPE_RULES.has(rule));
  return (types.length ? types : failed).map((rule) => {
    const message = constraints[rule];
    // A custom rule without a message (ValidateBy with no defaultMessage) would leave the line empty: name the rule.
    if (message === undefined || message.trim() === '') return `fails the ${rule} rule`;
    return Object.hasOwn(REWORDINGS, rule) ? REWORDINGS[rule](message, error) : message;
  });
}

/**
 * class-validator words `@IsEnum` with its own list of values, which is empty for an array
 * (`@IsEnum(['a', 'b'])`) and misses numeric-looking keys. Its default message gets the list
 * the schema advertises; a message the author wrote is kept as written.
 */
function withEnumValues(message: string, error: ValidationError): string {
  const owner = error.target?.constructor;
  if (typeof owner !== 'function') return message;
  const rule = readClassProperties(owner).find((p) => p.name === error.property)?.rules.find((r) => r.name === 'isEnum');
  const values = enumValues(rule?.constraints[0]);
  if (!rule || !values) return message;
  const listed = rule.constraints[1];
  const tail = `one of the following values: ${Array.isArray(listed) ? listed.join(', ') : String(listed ?? '')}`;
  if (!message.endsWith(tail)) return message;
  return `${message.slice(0, message.length - tail.length)}one of the following values: ${values.join(', ')}`;
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
