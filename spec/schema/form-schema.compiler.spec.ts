import 'reflect-metadata';
import { expect } from 'chai';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDateString, IsEnum, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID,
  Matches, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { Elicit } from '../../lib/decorators/elicit.decorator';
import { Field } from '../../lib/decorators/field.decorator';
import { DefinitionError } from '../../lib/core/errors';
import { compileFormClass, formClassProblems, formFromClass } from '../../lib/schema';

describe('compileFormClass', () => {
  context('when every property is a primitive with a default', () => {
    @Elicit({ message: 'Your preferences' })
    class Preferences {
      @Field({ title: 'Nickname', description: 'Shown to others' }) @IsOptional() @IsString() @MinLength(2) @MaxLength(20) @Matches(/^[a-z]+$/) nick = 'anon';
      @Field({ title: 'Age' }) @IsOptional() @IsInt() @Min(0) @Max(150) age = 30;
      @Field({ title: 'Ratio' }) @IsOptional() @IsNumber() ratio = 0.5;
      @Field({ title: 'Subscribe' }) @IsOptional() @IsBoolean() subscribe = false;
      @Field({ title: 'Start', format: 'date', default: '2025-01-01' }) @IsOptional() @IsString() start?: string;
      @Field({ title: 'When' }) @IsDateString() when!: string;
    }

    it('builds the flat requestedSchema with a default on each primitive', () => {
      expect(compileFormClass(Preferences)).to.deep.equal({
        message: 'Your preferences',
        requestedSchema: {
          type: 'object',
          properties: {
            nick: { type: 'string', title: 'Nickname', description: 'Shown to others', minLength: 2, maxLength: 20, pattern: '^[a-z]+$', default: 'anon' },
            age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150, default: 30 },
            ratio: { type: 'number', title: 'Ratio', default: 0.5 },
            subscribe: { type: 'boolean', title: 'Subscribe', default: false },
            start: { type: 'string', title: 'Start', format: 'date', default: '2025-01-01' },
            when: { type: 'string', title: 'When' },
          },
          required: ['when'],
        },
      });
    });
  });

  context('when properties are selects', () => {
    @Elicit({ message: 'Pick' })
    class Picks {
      @IsIn(['s', 'm', 'l']) size!: string;
      @Field({ title: 'Plan', oneOf: { free: 'Free', pro: 'Professional' } }) @IsIn(['free', 'pro']) plan = 'free';
      @Field({ title: 'Topics' }) @IsArray() @IsIn(['news', 'tips'], { each: true }) @ArrayMinSize(1) @ArrayMaxSize(2) topics = ['news'];
      @Field({ oneOf: { r: 'Red', g: 'Green' } }) @IsIn(['r', 'g'], { each: true }) @ArrayMaxSize(1) colours!: string[];
      @Field({ enumNames: ['Small', 'Large'] }) @IsIn(['s', 'l']) legacy!: string;
    }

    it('builds untitled, titled, multi and legacy selects', () => {
      expect(compileFormClass(Picks).requestedSchema).to.deep.equal({
        type: 'object',
        properties: {
          size: { type: 'string', enum: ['s', 'm', 'l'] },
          plan: { type: 'string', title: 'Plan', oneOf: [{ const: 'free', title: 'Free' }, { const: 'pro', title: 'Professional' }], default: 'free' },
          topics: { type: 'array', title: 'Topics', items: { type: 'string', enum: ['news', 'tips'] }, minItems: 1, maxItems: 2, default: ['news'] },
          colours: { type: 'array', items: { anyOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] }, maxItems: 1 },
          legacy: { type: 'string', enum: ['s', 'l'], enumNames: ['Small', 'Large'] },
        },
        required: ['size', 'colours', 'legacy'],
      });
    });
  });

  context('when a select takes its values from @IsEnum([...])', () => {
    @Elicit({ message: 'Phone' })
    class PhoneForm {
      @Field({ title: 'Kind', oneOf: { mobile: 'Mobile', home: 'Home', work: 'Work' } }) @IsEnum(['mobile', 'home', 'work']) kind!: string;
      @IsEnum(['sms', 'call']) contact!: string;
    }

    it('offers the listed values, not an empty select', () => {
      expect(compileFormClass(PhoneForm).requestedSchema.properties).to.deep.equal({
        kind: { type: 'string', title: 'Kind', oneOf: [{ const: 'mobile', title: 'Mobile' }, { const: 'home', title: 'Home' }, { const: 'work', title: 'Work' }] },
        contact: { type: 'string', enum: ['sms', 'call'] },
      });
    });
  });

  context('when properties cannot be carried by a form', () => {
    class Inner { @IsString() x!: string; }
    @Elicit({ message: 'Bad' })
    class BadForm {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
      @IsString({ each: true }) names!: string[];
      @IsUUID() id!: string;
      @Field({ description: 'what is this?' }) blob!: unknown;
      @IsIn([1, 2]) level!: number;
      @Field({ title: 'ok' }) @IsString() fine!: string;
    }

    it('lists every problem with a Class#property label', () => {
      // members, not order: a @Field-only property's place among validated ones is a best guess
      expect(formClassProblems(BadForm)).to.have.members([
        'BadForm#inner: is a nested object; a form carries only flat string, number, boolean and select fields',
        'BadForm#names: is an array of non-enum values; a form carries only multi selects (@IsIn([...], { each: true }))',
        'BadForm#id: has format "uuid"; forms allow only email, uri, date, date-time',
        'BadForm#blob: has no form type; declare it with @IsString, @IsNumber, @IsInt, @IsBoolean or @IsIn',
        'BadForm#level: offers non-string choices; form selects carry strings only',
      ]);
    });

    it('throws them as one DefinitionError', () => {
      expect(() => compileFormClass(BadForm)).to.throw(DefinitionError).with.property('problems').that.has.length(5);
    });
  });

  context('when the class is not a form', () => {
    class Plain { @IsString() a!: string; }
    @Elicit({ message: ' ' })
    class Silent { @IsString() a!: string; }

    it('reports a class without @Elicit', () => {
      expect(formClassProblems(Plain)).to.deep.equal(['Plain: is not decorated with @Elicit']);
    });

    it('reports an empty message', () => {
      expect(formClassProblems(Silent)).to.deep.equal(['Silent: @Elicit needs a non-empty message']);
    });
  });

  context('when the class is a good form', () => {
    @Elicit({ message: 'Fine' })
    class Fine { @IsString() a!: string; }

    it('has no problems', () => {
      expect(formClassProblems(Fine)).to.deep.equal([]);
    });
  });
});

describe('formFromClass', () => {
  @Elicit({ message: 'Where to?' })
  class Destination { @Field({ title: 'City' }) @IsString() city!: string; }

  it('returns the form elicitation, once per class', () => {
    const form = formFromClass(Destination);
    expect(form).to.deep.equal({
      mode: 'form',
      message: 'Where to?',
      requestedSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] },
      formClass: Destination,
    });
    expect(formFromClass(Destination)).to.equal(form);
  });
});
