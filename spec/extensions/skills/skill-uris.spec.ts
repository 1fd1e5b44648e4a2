import { expect } from 'chai';
import { parseFrontMatter } from '../../../lib/extensions/skills/front-matter';
import { skillNameProblem } from '../../../lib/extensions/skills/skill-name';
import { relativePathProblem, SkillUris } from '../../../lib/extensions/skills/skill-uris';

describe('SkillUris', () => {
  const uris = new SkillUris();

  describe('#parse', () => {
    it('names a skill and a path within it for a canonical URI', () => {
      expect(uris.parse('skill://pdf/SKILL.md')).to.deep.equal({ kind: 'skill', name: 'pdf', path: 'SKILL.md' });
      expect(uris.parse('skill://pdf/a%20b/c.md')).to.deep.equal({ kind: 'skill', name: 'pdf', path: 'a b/c.md' });
      expect(uris.parse('skill://pdf')).to.deep.equal({ kind: 'skill', name: 'pdf', path: '' });
    });

    it('names nothing for dot segments, encoded separators, empty segments or another spelling', () => {
      for (const uri of [
        'skill://pdf/../x', 'skill://pdf/./x', 'skill://pdf/%2e%2e/x', 'skill://pdf/%2E/x', 'skill://pdf/a%2Fb', 'skill://pdf/a%5Cb',
        'skill://pdf/a\\b', 'skill://pdf//x', 'skill://pdf/', 'skill://pdf/%41', 'skill://pdf/%zz', 'skill://pdf/x?y', 'skill://pdf/x#y',
        'skill://', 'file:///etc/passwd', 'skill://pdf/a%00b',
      ]) {
        expect(uris.parse(uri), uri).to.equal(undefined);
      }
    });

    it('builds URIs it parses back', () => {
      const uri = uris.file('pdf', 'with space/ü.md');
      expect(uri).to.equal('skill://pdf/with%20space/%C3%BC.md');
      expect(uris.parse(uri)).to.deep.equal({ kind: 'skill', name: 'pdf', path: 'with space/ü.md' });
    });

    context('with a prefix', () => {
      const prefixed = new SkillUris('acme/docs');

      it('names the prefix directories and the skills under them only', () => {
        expect(prefixed.parse('skill://acme')).to.deep.equal({ kind: 'prefix', depth: 1 });
        expect(prefixed.parse('skill://acme/docs')).to.deep.equal({ kind: 'prefix', depth: 2 });
        expect(prefixed.parse('skill://acme/docs/pdf/SKILL.md')).to.deep.equal({ kind: 'skill', name: 'pdf', path: 'SKILL.md' });
        expect(prefixed.parse('skill://pdf/SKILL.md')).to.equal(undefined);
        expect(prefixed.parse('skill://acme/other/pdf/SKILL.md')).to.equal(undefined);
      });
    });
  });
});

describe('relativePathProblem', () => {
  it('accepts relative paths and refuses the rest', () => {
    expect(relativePathProblem('a/b.md')).to.equal(undefined);
    for (const path of ['../x', 'a/../x', './x', '/abs', 'a//b', 'a\\b', '.hidden', 'a/.git/x', 'SKILL.md', '']) {
      expect(relativePathProblem(path), path).to.be.a('string');
    }
  });
});

describe('skillNameProblem', () => {
  it('follows the Agent Skills naming rules', () => {
    for (const name of ['a', 'pdf-processing', 'x9', 'a'.repeat(64)]) expect(skillNameProblem(name), name).to.equal(undefined);
    for (const name of ['', 'A', 'a_b', '-a', 'a-', 'a--b', 'a'.repeat(65), 'a.b', 'a/b']) expect(skillNameProblem(name), name).to.be.a('string');
  });
});

describe('parseFrontMatter', () => {
  it('parses the YAML between the first two --- lines as JSON', () => {
    expect(parseFrontMatter('\ufeff---\r\nname: x\r\ndescription: "y: z"\r\nlist: [1, 2]\r\n---\r\nbody')).to.deep.equal({ frontmatter: { name: 'x', description: 'y: z', list: [1, 2] } });
  });

  it('says what is wrong with a missing, unclosed, invalid, non-mapping or non-JSON front matter', () => {
    expect(parseFrontMatter('# no front matter')).to.have.property('problem').that.match(/must begin/);
    expect(parseFrontMatter('---\nname: x\n')).to.have.property('problem').that.match(/closing/);
    expect(parseFrontMatter('---\nname: [x\n---\n')).to.have.property('problem').that.match(/not valid YAML/);
    expect(parseFrontMatter('---\n- a\n---\n')).to.have.property('problem').that.match(/mapping/);
    expect(parseFrontMatter('---\nname: x\nsize: .inf\n---\n')).to.have.property('problem').that.match(/JSON cannot carry/);
  });
});
