import 'reflect-metadata';
import { expect } from 'chai';
import { Tool } from '../../lib/decorators/tool.decorator';
import { ToolUi, type ToolUiOptions } from '../../lib/decorators/tool-ui.decorator';
import { METADATA_KEYS } from '../../lib/metadata/metadata-keys';
import { readMembers, readMisplaced } from '../../lib/metadata/metadata-store';

describe('ToolUi', () => {
  it('records a frozen copy of its options for the method, leaving the caller\'s alone, whichever side of @Tool it is on', () => {
    const options = { html: '<html></html>', visibility: ['app'] as const };
    class Views {
      @Tool({ description: 'Above' })
      @ToolUi(options)
      above() { return ''; }

      @ToolUi({ resourceUri: 'ui://x/view.html' })
      @Tool({ description: 'Below' })
      below() { return ''; }
    }
    const records = readMembers<ToolUiOptions>(METADATA_KEYS.toolUi, Views);
    expect(records).to.deep.equal([
      { propertyKey: 'above', options: { html: '<html></html>', visibility: ['app'] } },
      { propertyKey: 'below', options: { resourceUri: 'ui://x/view.html' } },
    ]);
    expect(records[0].options).not.to.equal(options);
    expect(Object.isFrozen(records[0].options)).to.equal(true);
    expect(readMembers(METADATA_KEYS.tools, Views).map((record) => record.propertyKey)).to.deep.equal(['above', 'below']);
  });

  it('records a misplaced use on a property for the scanner to report', () => {
    class Misplaced {
      notAMethod = 'x';
    }
    (ToolUi({ html: '' }) as (target: object, key: string) => void)(Misplaced.prototype, 'notAMethod');
    expect(readMisplaced(Misplaced)).to.deep.equal([{ decorator: '@ToolUi', propertyKey: 'notAMethod' }]);
  });
});
