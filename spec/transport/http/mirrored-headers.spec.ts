import { expect } from 'chai';
import { decodeHeaderValue } from '../../../lib/transport/http/mirrored-headers';

describe('decodeHeaderValue', () => {
  it('takes plain values literally', () => {
    expect(decodeHeaderValue('us-west1')).to.equal('us-west1');
    expect(decodeHeaderValue('SGVsbG8=')).to.equal('SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).to.equal('=?base64?SGVsbG8=');
  });

  it('decodes the Base64 sentinel form', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).to.equal('Hello');
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).to.equal('Hello, 世界');
  });

  it('refuses a broken encoding', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).to.equal(undefined);
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).to.equal(undefined);
  });
});
