import 'reflect-metadata';
import { expect } from 'chai';
import { IsEmail, IsIn, IsString } from 'class-validator';
import { Elicit, formFromClass, toElicitParams, type ElicitOptions } from '../../lib/decorators/elicit.decorator';
import { Field } from '../../lib/decorators/field.decorator';
import { METADATA_KEYS } from '../../lib/metadata/metadata-keys';
import { readClassOptions } from '../../lib/metadata/metadata-store';

import { SEED_REQUESTED_SCHEMA as SEED_SCHEMA } from '../support/seed-form';

describe('Elicit', () => {
  describe('as a class decorator', () => {
    const options = { message: 'What is your info?' };

    @Elicit(options)
    class Info {
      @Field({ title: 'Your name' }) @IsString() name!: string;
      @Field({ title: 'Email' }) @IsEmail() email!: string;
      @Field({ title: 'Role', oneOf: { dev: 'Developer', pm: 'Product Manager' } }) @IsIn(['dev', 'pm']) role!: string;
    }

    it('records a frozen copy of its options, leaving the caller\'s alone', () => {
      const recorded = readClassOptions<ElicitOptions>(METADATA_KEYS.elicit, Info);
      expect(recorded).to.deep.equal({ message: 'What is your info?' });
      expect(recorded).not.to.equal(options);
      expect(Object.isFrozen(recorded)).to.equal(true);
      expect(Object.isFrozen(options)).to.equal(false);
    });

    it("compiles the seed's example form", () => {
      expect(toElicitParams(formFromClass(Info))).to.deep.equal({ mode: 'form', message: 'What is your info?', requestedSchema: SEED_SCHEMA });
    });

    context('when a subclass is not decorated', () => {
      class MoreInfo extends Info {}

      it('does not inherit the form', () => {
        expect(readClassOptions(METADATA_KEYS.elicit, MoreInfo)).to.equal(undefined);
      });
    });
  });

  describe('.form', () => {
    it("builds the seed's example form", () => {
      const form = Elicit.form({
        message: 'What is your info?',
        requestedSchema: [
          { type: 'string', name: 'name', required: true, title: 'Your name' },
          { type: 'string', name: 'email', required: true, title: 'Email', format: 'email' },
          { type: 'enum', name: 'role', required: true, title: 'Role', enum: [['dev', 'Developer'], ['pm', 'Product Manager']] },
        ],
      });
      expect(form.mode).to.equal('form');
      expect(form.requestedSchema).to.deep.equal(SEED_SCHEMA);
    });

    it('is also spelled .build, as in the seed', () => {
      expect(Elicit.build).to.equal(Elicit.form);
    });
  });

  describe('.url', () => {
    it('builds a URL elicitation', () => {
      expect(Elicit.url({ message: 'Please authenticate', url: 'https://example.com/oauth?elicitation_id=u1', elicitationId: 'u1' })).to.deep.equal({
        mode: 'url',
        message: 'Please authenticate',
        url: 'https://example.com/oauth?elicitation_id=u1',
        elicitationId: 'u1',
      });
    });
  });
});
