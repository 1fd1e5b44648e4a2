import { ErrorCode } from '../core/error-codes';
import { ProtocolError } from '../core/errors';
import { toElicitParams } from '../schema/elicitation.builder';
import type { UrlElicitation } from '../schema/form-elicitation';

/**
 * Thrown by a tool that cannot go on until the user completes one or more URL elicitations
 * (signing in, paying): the client receives a -32042 error carrying them, shows them, and may
 * retry the call afterwards.
 *
 * @example
 * throw new UrlElicitationRequiredError([Elicit.url({ message: 'Sign in', url, elicitationId })]);
 */
export class UrlElicitationRequiredError extends ProtocolError {
  override readonly name = 'UrlElicitationRequiredError';
  constructor(elicitations: readonly UrlElicitation[], message = 'This request requires the user to complete an action in the browser') {
    super(ErrorCode.UrlElicitationRequired, message, { elicitations: elicitations.map((e) => toElicitParams(e)) });
  }
}
