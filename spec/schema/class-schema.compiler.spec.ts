import 'reflect-metadata';
import { expect } from 'chai';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, ArrayNotEmpty, IsArray, IsBoolean, IsDateString, IsEmail, IsEnum, IsIn, IsInt,
  IsISO8601, IsNegative, IsNumber, IsOptional, IsPositive, IsString, IsUrl, IsUUID, Length, Matches, Max,
  MaxLength, Min, MinLength, Validate, ValidateBy, ValidateIf, ValidateNested, ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Field } from '../../lib/decorators/field.decorator';
import { compileClassSchema, registerSchemaConverter, validateArguments } from '../../lib/schema';

describe('compileClassSchema', () => {
  context('when a class has no properties', () => {
    class Empty {}

    it('is an empty object schema', () => {
      expect(compileClassSchema(Empty)).to.deep.equal({ type: 'object', properties: {}, additionalProperties: false });
    });
  });

  context('when properties carry string rules', () => {
    class Strings {
      @IsString() @MinLength(2) @MaxLength(40) name!: string;
      @IsString() @Length(3, 5) code!: string;
      @Matches(/^[a-z]+$/) slug!: string;
      @Matches('^\\d+$') digits!: string;
      @IsEmail() email!: string;
      @IsUrl() site!: string;
      @IsDateString() at!: string;
      @IsISO8601() since!: string;
      @IsUUID() id!: string;
      @Field({ format: 'date' }) @IsString() day!: string;
    }

    it('maps lengths, patterns and formats', () => {
      expect(compileClassSchema(Strings).properties).to.deep.equal({
        name: { type: 'string', minLength: 2, maxLength: 40 },
        code: { type: 'string', minLength: 3, maxLength: 5 },
        slug: { type: 'string', pattern: '^[a-z]+$' },
        digits: { type: 'string', pattern: '^\\d+$' },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        at: { type: 'string' },
        since: { type: 'string' },
        id: { type: 'string', format: 'uuid' },
        day: { type: 'string', format: 'date' },
      });
    });

    it('requires every property that is neither optional nor defaulted', () => {
      expect(compileClassSchema(Strings).required).to.deep.equal(['name', 'code', 'slug', 'digits', 'email', 'site', 'at', 'since', 'id', 'day']);
    });
  });

  context('when properties carry number and boolean rules', () => {
    class Numbers {
      @IsInt() @Min(1) @Max(14) days!: number;
      @IsNumber() @IsPositive() price!: number;
      @IsNegative() delta!: number;
      @IsInt() @IsNumber() count!: number;
      @IsBoolean() active!: boolean;
      untyped!: number;
    }

    it('maps types and bounds', () => {
      expect(compileClassSchema(Numbers).properties).to.deep.equal({
        days: { type: 'integer', minimum: 1, maximum: 14 },
        price: { type: 'number', exclusiveMinimum: 0 },
        delta: { type: 'number', exclusiveMaximum: 0 },
        count: { type: 'integer' },
        active: { type: 'boolean' },
      });
    });
  });

  context('when properties are enumerations', () => {
    enum Colour { Red = 'red', Blue = 'blue' }
    enum Level { Low, High }
    class Choices {
      @IsIn(['eco', 'biz']) cls!: string;
      @IsEnum(Colour) colour!: Colour;
      @IsEnum(Level) level!: Level;
      @Field({ oneOf: { eco: 'Economy', biz: 'Business' } }) @IsIn(['eco', 'biz']) titled!: string;
      @Field({ oneOf: [{ const: 'a', title: 'Alpha' }] }) free!: string;
      @Field({ enumNames: ['Economy', 'Business'] }) @IsIn(['eco', 'biz']) legacy!: string;
    }

    it('lists IsIn values, TS enum values and titled choices', () => {
      expect(compileClassSchema(Choices).properties).to.deep.equal({
        cls: { type: 'string', enum: ['eco', 'biz'] },
        colour: { type: 'string', enum: ['red', 'blue'] },
        level: { type: 'number', enum: [0, 1] },
        titled: { type: 'string', oneOf: [{ const: 'eco', title: 'Economy' }, { const: 'biz', title: 'Business' }] },
        free: { type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }] },
        legacy: { type: 'string', enum: ['eco', 'biz'], enumNames: ['Economy', 'Business'] },
      });
    });
  });

  context('when @IsEnum is given an array, a plain object or a numeric enum', () => {
    enum Level { Low, High }
    enum Mixed { No = 0, Yes = 'yes' }
    const Ordinals = { '1st': 'first', '2nd': 'second' };
    class Phone {
      @IsEnum(['mobile', 'home', 'work']) kind!: string;
      @IsEnum({ a: 'x', b: 'y' }) letter!: string;
      @IsEnum(Ordinals) ordinal!: string;
      @IsEnum(Level) level!: Level;
      @IsEnum(Mixed) mixed!: Mixed;
      @IsEnum([1, 2, 3], { each: true }) lines!: number[];
    }

    it('advertises the values class-validator accepts, not an empty list', () => {
      expect(compileClassSchema(Phone).properties).to.deep.equal({
        kind: { type: 'string', enum: ['mobile', 'home', 'work'] },
        letter: { type: 'string', enum: ['x', 'y'] },
        ordinal: { type: 'string', enum: ['first', 'second'] },
        level: { type: 'number', enum: [0, 1] },
        mixed: { enum: [0, 'yes'] },
        lines: { type: 'array', items: { type: 'number', enum: [1, 2, 3] } },
      });
    });
  });

  context('when a property is @IsDateString() or @IsISO8601()', () => {
    class Dates {
      @IsDateString() day!: string;
      @IsISO8601() week!: string;
    }

    it('advertises no date-time format, since plain dates (and weeks, ordinals...) pass too', async () => {
      expect(await validateArguments(Dates, { day: '2024-05-01', week: '2024-W18' })).to.have.property('ok', true);
      expect(compileClassSchema(Dates).properties).to.deep.equal({ day: { type: 'string' }, week: { type: 'string' } });
    });
  });

  context('when properties are arrays', () => {
    class Lists {
      @IsArray() @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(3) tags!: string[];
      @IsInt({ each: true }) @Min(0, { each: true }) @ArrayNotEmpty() scores!: number[];
      @Field({ oneOf: { a: 'A', b: 'B' } }) @IsIn(['a', 'b'], { each: true }) picks!: string[];
      @IsArray() anything!: unknown[];
    }

    it('puts each-rules on the items and sizes on the array', () => {
      expect(compileClassSchema(Lists).properties).to.deep.equal({
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        scores: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1 },
        picks: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }, { const: 'b', title: 'B' }] } },
        anything: { type: 'array' },
      });
    });
  });

  context('when a nested class is used once', () => {
    class Address { @IsString() city!: string; }
    class Person {
      @ValidateNested() @Type(() => Address) address!: Address;
    }

    it('inlines it', () => {
      expect(compileClassSchema(Person)).to.deep.equal({
        type: 'object',
        properties: {
          address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        },
        required: ['address'],
        additionalProperties: false,
      });
    });
  });

  context('when a nested class is used twice', () => {
    class Address { @IsString() city!: string; }
    class Order {
      @ValidateNested() @Type(() => Address) billing!: Address;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => Address) stops?: Address[];
    }

    it('defines it once in $defs and refers to it', () => {
      expect(compileClassSchema(Order)).to.deep.equal({
        type: 'object',
        properties: {
          billing: { $ref: '#/$defs/Address' },
          stops: { type: 'array', items: { $ref: '#/$defs/Address' } },
        },
        required: ['billing'],
        additionalProperties: false,
        $defs: {
          Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        },
      });
    });
  });

  context('when two shared classes have the same name', () => {
    const Home = (() => {
      class Address { @IsString() street!: string; }
      return Address;
    })();
    const Work = (() => {
      class Address { @IsString() office!: string; }
      return Address;
    })();
    class Contacts {
      @ValidateNested() @Type(() => Home) home!: InstanceType<typeof Home>;
      @IsOptional() @ValidateNested() @Type(() => Home) oldHome?: InstanceType<typeof Home>;
      @ValidateNested() @Type(() => Work) work!: InstanceType<typeof Work>;
      @IsOptional() @ValidateNested() @Type(() => Work) oldWork?: InstanceType<typeof Work>;
    }

    it('numbers the second name in $defs', () => {
      const schema = compileClassSchema(Contacts);
      expect(schema.properties).to.deep.equal({
        home: { $ref: '#/$defs/Address' },
        oldHome: { $ref: '#/$defs/Address' },
        work: { $ref: '#/$defs/Address2' },
        oldWork: { $ref: '#/$defs/Address2' },
      });
      expect(Object.keys(schema.$defs as object)).to.deep.equal(['Address', 'Address2']);
      expect((schema.$defs as Record<string, { properties: object }>).Address2.properties).to.deep.equal({ office: { type: 'string' } });
    });
  });

  context('when classes are recursive', () => {
    class Leaf {
      @IsString() name!: string;
      @IsOptional() @ValidateNested() @Type(() => Leaf) next?: Leaf;
    }
    class Tree {
      @IsOptional() @ValidateNested({ each: true }) @Type(() => Tree) children?: Tree[];
      @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
    }

    it('refers to the root as # and to others through $defs', () => {
      expect(compileClassSchema(Tree)).to.deep.equal({
        type: 'object',
        properties: {
          children: { type: 'array', items: { $ref: '#' } },
          leaf: { $ref: '#/$defs/Leaf' },
        },
        required: ['leaf'],
        additionalProperties: false,
        $defs: {
          Leaf: {
            type: 'object',
            properties: { name: { type: 'string' }, next: { $ref: '#/$defs/Leaf' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      });
    });
  });

  context('when a property has only @Field or only a design type', () => {
    class Described {
      @Field({ description: 'Free text', title: 'Note', examples: ['hi'], deprecated: true }) note!: string;
      @Field() when!: Date;
      @Field() flag!: boolean;
    }

    it('still appears, typed from design:type', () => {
      expect(compileClassSchema(Described).properties).to.deep.equal({
        note: { type: 'string', description: 'Free text', title: 'Note', examples: ['hi'], deprecated: true },
        when: { type: 'string', format: 'date-time' },
        flag: { type: 'boolean' },
      });
    });
  });

  context('when properties have defaults', () => {
    class Defaults {
      @IsOptional() @IsInt() days = 3;
      @IsString() unit = 'metric';
      @IsArray() @IsString({ each: true }) tags = ['a'];
      @IsOptional() @IsString() @Field({ default: 'fr' }) lang?: string;
      @IsOptional() @Field() created: Date = new Date(0);
    }

    it('advertises JSON defaults and leaves defaulted properties out of required', () => {
      const schema = compileClassSchema(Defaults);
      expect(schema.properties).to.deep.equal({
        days: { type: 'integer', default: 3 },
        unit: { type: 'string', default: 'metric' },
        tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
        lang: { type: 'string', default: 'fr' },
        created: { type: 'string', format: 'date-time' },
      });
      expect(schema).not.to.have.property('required');
    });
  });

  context('when only some properties are validated', () => {
    class Mixed {
      @Field({ title: 'A' }) a!: string;
      @Field({ title: 'B' }) @IsString() b!: string;
      @Field({ title: 'C' }) c!: string;
    }

    it('keeps declaration order', () => {
      expect(Object.keys(compileClassSchema(Mixed).properties as object)).to.deep.equal(['a', 'b', 'c']);
    });
  });

  context('when a class inherits properties', () => {
    class Base { @IsString() id!: string; }
    class Derived extends Base { @IsInt() size!: number; }

    it('lists the ancestor properties first', () => {
      expect(Object.keys(compileClassSchema(Derived).properties as object)).to.deep.equal(['id', 'size']);
    });
  });

  context('when a custom validator has a registered converter', () => {
    const IsSlug = () => ValidateBy({ name: 'isSlugForSpec', validator: { validate: (v: unknown) => /^[a-z-]+$/.test(String(v)) } });
    class Page { @IsSlug() slug!: string; }

    it('applies the converter', () => {
      registerSchemaConverter('isSlugForSpec', (rule, schema) => {
        schema.type = 'string';
        schema.pattern = '^[a-z-]+$';
        schema['x-rule'] = rule.name;
      });
      expect(compileClassSchema(Page).properties).to.deep.equal({ slug: { type: 'string', pattern: '^[a-z-]+$', 'x-rule': 'isSlugForSpec' } });
    });
  });

  context('when a constraint class has a registered converter', () => {
    @ValidatorConstraint({ name: 'isEvenForSpec' })
    class IsEven implements ValidatorConstraintInterface {
      validate(value: unknown) { return Number(value) % 2 === 0; }
    }
    class Pair {
      @Validate(IsEven) @IsInt() size!: number;
      @ValidateIf((o: Pair) => o.size > 2) @IsString() label?: string;
    }

    it('finds the converter by the constraint name', () => {
      registerSchemaConverter('isEvenForSpec', (_rule, schema) => {
        schema.multipleOf = 2;
      });
      expect(compileClassSchema(Pair)).to.deep.equal({
        type: 'object',
        properties: { size: { type: 'integer', multipleOf: 2 }, label: { type: 'string' } },
        required: ['size'],
        additionalProperties: false,
      });
    });
  });

  describe('caching', () => {
    class Cached { @IsString() a!: string; }

    it('returns the same frozen schema on every call', () => {
      const first = compileClassSchema(Cached);
      expect(compileClassSchema(Cached)).to.equal(first);
      expect(Object.isFrozen(first.properties)).to.equal(true);
    });
  });
});
