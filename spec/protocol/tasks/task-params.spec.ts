import { expect } from 'chai';
import { ProtocolError } from '../../../lib';
import { foundTask, taskIdOf } from '../../../lib/protocol/tasks/task-params';

describe('task params (one wording for both eras)', () => {
  describe('taskIdOf', () => {
    it('takes a non-empty string taskId, and refuses anything else with -32602', () => {
      expect(taskIdOf({ taskId: 'abc' })).to.equal('abc');
      for (const taskId of [undefined, '', 7, null]) {
        expect(() => taskIdOf({ taskId } as never)).to.throw(ProtocolError, '"taskId" must be a non-empty string').with.property('code', -32602);
      }
    });
  });

  describe('foundTask', () => {
    it('gives the task back, and answers -32602 "Task not found" without one, saying why when told', () => {
      expect(foundTask({ id: 't' })).to.deep.equal({ id: 't' });
      expect(() => foundTask(undefined)).to.throw(ProtocolError, /^Task not found$/).with.property('code', -32602);
      expect(() => foundTask(undefined, 'it expired')).to.throw(ProtocolError, /^Task not found \(it expired\)$/);
    });
  });
});
