/**
 * The outcome of `ctx.elicit()`. Branch on `action`:
 * - `accept`: the user answered; `content` is a validated instance of the form class (form mode)
 *   or `undefined` (URL mode);
 * - `decline` / `cancel`: the user said no, or dismissed the request;
 * - `unsupported`: the client did not declare this elicitation mode, so nothing was sent; fall back;
 * - `timeout`: no answer in time.
 */
export type ElicitResult<T> =
  | { readonly action: 'accept'; readonly content: T }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }
  | { readonly action: 'unsupported' }
  | { readonly action: 'timeout' };
