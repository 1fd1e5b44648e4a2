import { expect } from 'chai';
import { CallEndedSignal, ToolError } from '../../../lib/core/errors';
import { ELICITATION_META_KEY } from '../../../lib/extensions/apps/app-ids';
import { FormFallback, pendingFormOf } from '../../../lib/extensions/apps/form-fallback';
import type { ExtensionTokens } from '../../../lib/router/extensions/extension';

/** Tokens that are the JSON of what they seal: enough to read what a waiting result carries. */
const plainTokens: ExtensionTokens = {
  seal: (value) => JSON.stringify(value),
  open: (token) => ({ ok: true, value: JSON.parse(String(token)) }),
};
const request = { message: 'Which day?', requestedSchema: { type: 'object', properties: {} }, key: 'elicit-2' };

describe('FormFallback', () => {
  const fallback = (answers: Record<string, unknown>, maxForms = 16) =>
    new FormFallback({ tool: 'book', arguments: { n: 1 }, answers, principal: 'ann' }, plainTokens, { ttlMs: 1000, maxForms });

  it('answers a form from the answers so far, by key', async () => {
    expect(await fallback({ 'elicit-2': { action: 'decline' } }).elicit(request)).to.deep.equal({ action: 'decline' });
  });

  it('ends the call for a form not answered yet, its token carrying the call and the answers so far', async () => {
    const ended = await fallback({ 'elicit-1': { action: 'accept', content: { people: 2 } } }).elicit(request).catch((error: unknown) => error);
    expect(ended).to.be.instanceOf(CallEndedSignal);
    const pending = (ended as CallEndedSignal).result._meta![ELICITATION_META_KEY] as { message: string; token: string };
    expect(pending.message).to.equal('Which day?');
    expect(pendingFormOf(JSON.parse(pending.token))).to.deep.equal({ tool: 'book', arguments: { n: 1 }, answers: { 'elicit-1': { action: 'accept', content: { people: 2 } } }, key: 'elicit-2' });
  });

  it('asks the same form again on an invalid answer, with the issues and without that answer', () => {
    let ended: unknown;
    try {
      fallback({ 'elicit-2': { action: 'accept', content: {} } }).invalid(request, ['day must be a date']);
    } catch (error) {
      ended = error;
    }
    const pending = (ended as CallEndedSignal).result._meta![ELICITATION_META_KEY] as { issues: string[]; token: string };
    expect(pending.issues).to.deep.equal(['day must be a date']);
    expect({ ...pendingFormOf(JSON.parse(pending.token))!.answers }).to.deep.equal({});
  });

  it('refuses a form beyond maxFormsPerCall', async () => {
    const failure = await fallback({ a: { action: 'decline' } }, 1).elicit(request).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(ToolError);
    expect((failure as Error).message).to.contain('more than 1 forms');
  });
});
