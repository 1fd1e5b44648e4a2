import 'reflect-metadata';
import { expect } from 'chai';
import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsEmail, IsEnum, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min,
  MinLength, ValidateIf, ValidateNested, validate,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Field } from '../../lib';
import { compileClassSchema } from '../../lib/schema';
import { directValidator } from '../../lib/schema/direct-validator';

enum Level { Low, High }

class Flat {
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsString() @MinLength(2) @MaxLength(5) name!: string;
  @IsOptional() @IsInt() @Min(1) @Max(14) days = 3;
  @IsOptional() @IsNumber() score?: number;
  @IsOptional() @IsBoolean() flag?: boolean;
  @IsOptional() @IsIn(['a', 'b']) choice?: string;
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @Matches(/^x+$/) xs?: string;
  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(2) @IsIn(['p', 'q'], { each: true }) tags?: string[];
  @ValidateIf((o: Flat) => o.flag === true) @IsDefined() needed?: string;
  @Field({ oneOf: { r: 'Red', g: 'Green' } }) @IsOptional() colour?: string;
}

class Inner { @IsString() v!: string; }
class Nested {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}

const INPUTS: Record<string, unknown>[] = [
  { name: 'Ada' }, { name: 'A' }, { name: 'Adaaaaa' }, { name: 7 }, {}, { name: 'Ada', days: 0 }, { name: 'Ada', days: 2.5 },
  { name: 'Ada', days: 14 }, { name: 'Ada', score: Number.NaN }, { name: 'Ada', score: 1.5 }, { name: 'Ada', flag: 'yes' },
  { name: 'Ada', choice: 'c' }, { name: 'Ada', choice: 'b' }, { name: 'Ada', email: 'nope' }, { name: 'Ada', email: 'a@b.co' },
  { name: 'Ada', xs: 'xxy' }, { name: 'Ada', xs: 'xxx' }, { name: 'Ada', tags: [] }, { name: 'Ada', tags: ['p', 'r'] },
  { name: 'Ada', tags: ['p', 'q'] }, { name: 'Ada', tags: 'p' }, { name: 'Ada', flag: true }, { name: 'Ada', flag: true, needed: 'x' },
  { name: 'Ada', colour: 'b' }, { name: 'Ada', colour: 'g' }, { name: '😀😀' }, { name: 'Ada', days: null }, { name: null },
  { name: 'Ada', level: 1 }, { name: 'Ada', level: 2 }, { name: 'Ada', level: 'Low' },
];

describe('directValidator', () => {
  const direct = directValidator(Flat, compileClassSchema(Flat))!;

  it('covers flat DTOs with class-validator rules', () => {
    expect(direct).to.be.a('function');
  });

  it('accepts exactly what class-transformer + class-validator accept, building the same instance', async () => {
    for (const input of INPUTS) {
      const fast = direct({ ...input });
      const slow = plainToInstance(Flat, { ...input });
      const errors = await validate(slow, { forbidUnknownValues: false });
      const colourOk = slow.colour === undefined || ['r', 'g'].includes(slow.colour);
      // class-validator also takes a numeric enum's member names, which the schema does not list.
      const levelOk = slow.level === undefined || [0, 1].includes(slow.level);
      if (fast) {
        expect(errors, JSON.stringify(input)).to.deep.equal([]);
        expect(colourOk, JSON.stringify(input)).to.equal(true);
        expect(levelOk, JSON.stringify(input)).to.equal(true);
        expect(fast).to.be.instanceOf(Flat);
        expect({ ...fast }).to.deep.equal({ ...slow });
      }
      if (errors.length === 0 && colourOk && levelOk && slow.name !== undefined) {
        expect(fast, `the direct path should take ${JSON.stringify(input)}`).to.not.equal(undefined);
      }
    }
  });

  it('leaves nested DTOs to the full path', () => {
    expect(directValidator(Nested, compileClassSchema(Nested))).to.equal(undefined);
  });

  it('leaves object values to the full path', () => {
    expect(direct({ name: 'Ada', tags: [{}] as never })).to.equal(undefined);
  });
});
