/** A choice shown with a label: `{ eco: 'Economy' }` or `[{ const: 'eco', title: 'Economy' }]`. */
export type TitledValues = Readonly<Record<string, string>> | ReadonlyArray<{ const: string; title: string }>;

/** String formats the framework can advertise; forms accept only `email`, `uri`, `date`, `date-time`. */
export type FieldFormat = 'email' | 'uri' | 'date' | 'date-time' | 'uuid' | (string & {});

/**
 * What class-validator cannot say about a property: its description, title, examples, display
 * labels for enum values, a format. Works on tool/prompt argument DTOs and on `@Elicit` forms.
 */
export interface FieldOptions {
  /** Shown to the model (tools) or the user (forms). */
  readonly description?: string;
  /** A short human label. */
  readonly title?: string;
  /** Example values, copied to the JSON Schema `examples`. */
  readonly examples?: readonly unknown[];
  /** A format the validators do not imply, e.g. `'date'`. */
  readonly format?: FieldFormat;
  /**
   * Labels for the allowed values. With `@IsIn`/`@IsEnum` the values come from the validator;
   * without one, the keys here are the values. On an array property this makes a titled multi
   * select (`items.anyOf`); otherwise a titled single select (`oneOf`).
   */
  readonly oneOf?: TitledValues;
  /** Legacy form labels (`enumNames`), one per `@IsIn` value, in order. Prefer `oneOf`. */
  readonly enumNames?: readonly string[];
  /** Overrides the default taken from the property initialiser. */
  readonly default?: unknown;
  /** Marks the property deprecated in the schema. */
  readonly deprecated?: boolean;
  /**
   * Mirrors this top-level primitive argument into the `Mcp-Param-{header}` HTTP header
   * (`x-mcp-header` in the schema), so gateways can route on it; the server checks they agree.
   */
  readonly header?: string;
}
