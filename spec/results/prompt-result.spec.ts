import { expect } from 'chai';
import { Content, assistantText, promptMessage, userText } from '../../lib';
import { normalisePromptResult } from '../../lib/results/prompt-result';

describe('normalisePromptResult', () => {
  it('makes a string one user message, with the prompt description', () => {
    expect(normalisePromptResult('hi', 'Greets')).to.deep.equal({
      description: 'Greets',
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    });
  });

  it('keeps messages and their roles', () => {
    expect(normalisePromptResult([userText('a'), assistantText('b')]).messages.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
  });

  it('takes a content block as a user message', () => {
    const image = Content.image('AAAA', 'image/png');
    expect(normalisePromptResult(image).messages).to.deep.equal([{ role: 'user', content: image }]);
  });

  it('takes a full result as it is, defaulting its description', () => {
    const message = promptMessage('assistant', Content.text('x'));
    expect(normalisePromptResult({ messages: [message] }, 'D')).to.deep.equal({ description: 'D', messages: [message] });
  });
});
