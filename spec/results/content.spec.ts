import { expect } from 'chai';
import { Content } from '../../lib';
import { isContentBlock, toBase64 } from '../../lib/results/content';

describe('Content', () => {
  describe('.text', () => {
    it('builds a text block', () => {
      expect(Content.text('hi')).to.deep.equal({ type: 'text', text: 'hi' });
    });
  });

  describe('.image and .audio', () => {
    context('when given bytes', () => {
      it('encodes them as base64, with the default MIME types', () => {
        expect(Content.image(new Uint8Array([1, 2, 3]))).to.deep.equal({ type: 'image', data: 'AQID', mimeType: 'image/png' });
        expect(Content.audio(new Uint8Array([1, 2, 3]).buffer, 'audio/ogg')).to.deep.equal({ type: 'audio', data: 'AQID', mimeType: 'audio/ogg' });
      });
    });

    context('when given a string', () => {
      it('takes it as base64 already', () => {
        expect(Content.image('AQID', 'image/jpeg')).to.deep.equal({ type: 'image', data: 'AQID', mimeType: 'image/jpeg' });
      });
    });
  });

  describe('.resource and .resourceLink', () => {
    it('build embedded resources and resource links', () => {
      expect(Content.resource({ uri: 'a://b', text: 't' })).to.deep.equal({ type: 'resource', resource: { uri: 'a://b', text: 't' } });
      expect(Content.resourceLink({ uri: 'a://b', name: 'b' })).to.deep.equal({ type: 'resource_link', uri: 'a://b', name: 'b' });
    });
  });
});

describe('toBase64', () => {
  context('when the bytes are a view into a larger buffer', () => {
    it('encodes the view only', () => {
      const view = new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5);
      expect(toBase64(view)).to.equal('AQID');
    });
  });
});

describe('isContentBlock', () => {
  it('knows the five block types and nothing else', () => {
    for (const type of ['text', 'image', 'audio', 'resource', 'resource_link']) expect(isContentBlock({ type })).to.equal(true);
    for (const value of [null, 'text', { type: 'video' }, { text: 'x' }, { type: 'constructor' }]) expect(isContentBlock(value)).to.equal(false);
  });
});
