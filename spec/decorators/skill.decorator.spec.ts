import 'reflect-metadata';
import { expect } from 'chai';
import { Skill, type SkillOptions } from '../../lib/decorators/skill.decorator';
import { METADATA_KEYS } from '../../lib/metadata/metadata-keys';
import { readMembers, readMisplaced } from '../../lib/metadata/metadata-store';

describe('Skill', () => {
  it('records a frozen copy of its options for the method, leaving the caller\'s alone', () => {
    const options = { name: 'daily-report', description: 'Daily' };
    class Reports {
      @Skill(options)
      daily() { return 'body'; }
    }
    const [record] = readMembers<SkillOptions>(METADATA_KEYS.skills, Reports);
    expect(record).to.deep.equal({ propertyKey: 'daily', options: { name: 'daily-report', description: 'Daily' } });
    expect(record.options).not.to.equal(options);
    expect(Object.isFrozen(record.options)).to.equal(true);
  });

  it('records a misplaced use on a property for the scanner to report', () => {
    class Misplaced {
      notAMethod = 'x';
    }
    (Skill({ name: 'x', description: 'x' }) as (target: object, key: string) => void)(Misplaced.prototype, 'notAMethod');
    expect(readMisplaced(Misplaced)).to.deep.equal([{ decorator: '@Skill', propertyKey: 'notAMethod' }]);
  });
});
