import type { JsonSchema } from './json-schema.types';

/** The string formats an MCP form may ask for. `date_time` is the seed's spelling of `date-time`. */
export type FormStringFormat = 'email' | 'uri' | 'date' | 'date-time' | 'date_time';

interface FormPropertyBase {
  /** The key of the answer in the accepted `content`. */
  readonly name: string;
  /** Listed in `requestedSchema.required`; defaults to false. */
  readonly required?: boolean;
  readonly title?: string;
  readonly description?: string;
}

/** A text field. `pattern` is sent as its source; flags such as `i` only apply server-side. */
export interface StringProperty extends FormPropertyBase {
  readonly type: 'string';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string | RegExp;
  readonly format?: FormStringFormat;
  readonly default?: string;
}

/** A number field (`integer` accepts whole numbers only); `minimum` and `maximum` are inclusive. */
export interface NumberProperty extends FormPropertyBase {
  readonly type: 'number' | 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

/** A checkbox. */
export interface BooleanProperty extends FormPropertyBase {
  readonly type: 'boolean';
  readonly default?: boolean;
}

/** One choice: a bare value, a `[value, title]` pair (the seed's tuple) or `{ const, title }`. */
export type EnumChoice = string | readonly [value: string, title: string] | { readonly const: string; readonly title: string };

/**
 * A select. Bare values make an untitled select; any titled choice makes a titled one (`oneOf`,
 * or `items.anyOf` with `multi`). `min`/`max` bound how many a multi select takes. `enumNames`
 * makes the legacy titled form (bare values, single select only).
 */
export interface EnumProperty extends FormPropertyBase {
  readonly type: 'enum';
  readonly enum: readonly EnumChoice[];
  readonly multi?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly enumNames?: readonly string[];
  readonly default?: string | readonly string[];
}

/** One field of a form built with `Elicit.form`: MCP forms are flat, so each is a primitive. */
export type FormProperty = StringProperty | NumberProperty | BooleanProperty | EnumProperty;

/** The flat object schema MCP lets a form carry (spec: `ElicitRequestFormParams.requestedSchema`). */
export interface RequestedSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
}

/** What `Elicit.form` takes: the message shown above the form and its fields, in order. */
export interface FormSpec {
  /** Shown to the user above the form: say what you need and why. */
  readonly message: string;
  readonly requestedSchema: readonly FormProperty[];
}

/** What `Elicit.url` takes: a page for the user to open (sign in, pay, consent) out of band. */
export interface UrlSpec {
  /** Shown to the user with the link: say why they should open it. */
  readonly message: string;
  /** The page to open; embed `elicitationId` in it so your callback knows which flow finished. */
  readonly url: string;
  readonly elicitationId: string;
}

/** A form to show the user: from `Elicit.form(...)` (`properties`) or an `@Elicit` class (`formClass`). */
export interface FormElicitation {
  readonly mode: 'form';
  readonly message: string;
  readonly requestedSchema: RequestedSchema;
  readonly formClass?: Function;
  readonly properties?: readonly FormProperty[];
}

/** A page for the user to visit (OAuth, payment...); completion is signalled by `elicitationId`. */
export interface UrlElicitation {
  readonly mode: 'url';
  readonly message: string;
  readonly url: string;
  readonly elicitationId: string;
}

// The runtime side of elicitations, so callers find the types and the functions in one module.
