import { expect } from 'chai';
import { clientResultProblem } from '../../lib/core/client-results';

describe('clientResultProblem', () => {
  context('when the method is elicitation/create', () => {
    it('accepts the three actions and names anything else', () => {
      for (const action of ['accept', 'decline', 'cancel']) expect(clientResultProblem('elicitation/create', { action })).to.equal(undefined);
      expect(clientResultProblem('elicitation/create', { action: 'maybe' })).to.equal('"action" must be accept, decline or cancel');
      expect(clientResultProblem('elicitation/create', {})).to.equal('"action" must be accept, decline or cancel');
    });
  });

  context('when the method is sampling/createMessage', () => {
    it('needs a role and a content object', () => {
      expect(clientResultProblem('sampling/createMessage', { role: 'assistant', content: { type: 'text', text: 'hi' } })).to.equal(undefined);
      expect(clientResultProblem('sampling/createMessage', { role: 'assistant', content: null })).to.equal('it needs a "role" and a "content" object');
      expect(clientResultProblem('sampling/createMessage', { content: {} })).to.equal('it needs a "role" and a "content" object');
    });
  });

  context('when the method is roots/list', () => {
    it('accepts file:// roots with optional string names', () => {
      expect(clientResultProblem('roots/list', { roots: [] })).to.equal(undefined);
      expect(clientResultProblem('roots/list', { roots: [{ uri: 'file:///a' }, { uri: 'file:///b', name: 'b' }] })).to.equal(undefined);
    });

    it('names the first wrong root', () => {
      expect(clientResultProblem('roots/list', {})).to.equal('"roots" must be an array');
      expect(clientResultProblem('roots/list', { roots: ['file:///a'] })).to.equal('roots[0] must be an object');
      expect(clientResultProblem('roots/list', { roots: [{ uri: 'file:///a' }, { uri: 'https://x' }] })).to.equal('roots[1].uri must be a file:// URI');
      expect(clientResultProblem('roots/list', { roots: [{ uri: 'file:///a', name: 3 }] })).to.equal('roots[0].name must be a string');
    });
  });

  context('when the method has no known result shape', () => {
    it('finds nothing wrong, even for a method named like an Object.prototype member', () => {
      expect(clientResultProblem('tools/call', {})).to.equal(undefined);
      expect(clientResultProblem('constructor', {})).to.equal(undefined);
      expect(clientResultProblem('toString', {})).to.equal(undefined);
    });
  });
});
