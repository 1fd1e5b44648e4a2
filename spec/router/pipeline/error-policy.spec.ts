import 'reflect-metadata';
import { expect } from 'chai';
import { ClientError, ProtocolError, ResourceNotFoundError, ToolError, type Diagnostics } from '../../../lib';
import { TARGET_ERROR_POLICY } from '../../../lib/router/pipeline/error-policy';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('TARGET_ERROR_POLICY', () => {
  const logged: string[] = [];
  const diagnostics: Diagnostics = { error: (message) => logged.push(message), warn: () => {} };

  beforeEach(() => { logged.length = 0; });

  describe('tool', () => {
    const { tool } = TARGET_ERROR_POLICY;

    it('answers an unknown tool with -32602', () => {
      expect(tool.unknown('nope').toJSON()).to.deep.equal({ code: -32602, message: 'Unknown tool: nope' });
    });

    it('answers invalid arguments with an isError result, one line per issue', () => {
      expect(tool.invalidArguments('echo', ['text: must be a string'])).to.deep.equal({
        content: [{ type: 'text', text: 'Invalid arguments for tool "echo":\n- text: must be a string' }], isError: true,
      });
    });

    it('answers a ToolError or ClientError of the handler with an isError result carrying its message', () => {
      expect(tool.failed(new ToolError('No such city'), 'echo', 'T#echo', diagnostics)).to.deep.equal({ content: [{ type: 'text', text: 'No such city' }], isError: true });
      const client = ClientError.answered('roots/list', { code: -1, message: 'no roots' });
      expect(tool.failed(client, 'echo', 'T#echo', diagnostics)).to.have.property('isError', true);
    });

    it('answers any other failure with a generic isError result, the detail to diagnostics', () => {
      expect(tool.failed(new Error('secret'), 'echo', 'T#echo', diagnostics)).to.deep.equal({ content: [{ type: 'text', text: 'The tool failed with an internal error.' }], isError: true });
      expect(logged).to.deep.equal(['T#echo threw']);
    });

    it('lets a ProtocolError pass as the JSON-RPC error it is', () => {
      const error = new ProtocolError(-32042, 'URL elicitation required');
      expect(thrown(() => tool.failed(error, 'echo', 'T#echo', diagnostics))).to.equal(error);
    });
  });

  describe('prompt', () => {
    const { prompt } = TARGET_ERROR_POLICY;

    it('answers an unknown prompt with -32602', () => {
      expect(prompt.unknown('nope').toJSON()).to.deep.equal({ code: -32602, message: 'Unknown prompt: nope' });
    });

    it('answers invalid arguments with -32602', () => {
      const error = thrown(() => prompt.invalidArguments('plan', ['days: must be an integer'])) as ProtocolError;
      expect(error.toJSON()).to.deep.equal({ code: -32602, message: 'Invalid arguments for prompt "plan":\n- days: must be an integer' });
    });

    it('leaves a failure of the handler to the wire error mapper', () => {
      const error = new ToolError('cannot plan that');
      expect(thrown(() => prompt.failed(error, 'plan', 'T#plan', diagnostics))).to.equal(error);
    });
  });

  describe('resource', () => {
    const { resource } = TARGET_ERROR_POLICY;

    it('answers an unknown resource with -32002 naming the URI', () => {
      expect(resource.unknown('x://a').toJSON()).to.deep.equal({ code: -32002, message: 'Resource not found: x://a', data: { uri: 'x://a' } });
    });

    it('answers invalid template variables with -32602', () => {
      const error = thrown(() => resource.invalidArguments('x://items/0', ['id: must not be less than 1'])) as ProtocolError;
      expect(error.toJSON()).to.deep.equal({ code: -32602, message: 'Invalid arguments for resource "x://items/0":\n- id: must not be less than 1' });
    });

    it('answers a ResourceNotFoundError of the handler as not found for the URI read, with its message', () => {
      const error = thrown(() => resource.failed(new ResourceNotFoundError('No note named a'), 'x://a', 'T#note', diagnostics)) as ProtocolError;
      expect(error.toJSON()).to.deep.equal({ code: -32002, message: 'No note named a', data: { uri: 'x://a' } });
    });

    it('leaves any other failure to the wire error mapper', () => {
      const error = new Error('boom');
      expect(thrown(() => resource.failed(error, 'x://a', 'T#note', diagnostics))).to.equal(error);
    });
  });
});
