import 'reflect-metadata';
import { expect } from 'chai';
import { IsInt, IsString, Max } from 'class-validator';
import { Field } from '../../lib';
import { compileOutputCheck } from '../../lib/schema/output-validator';

class Weather {
  @Field({ description: 'City' }) @IsString() city!: string;
  @Field({ description: 'Degrees' }) @IsInt() @Max(60) degrees!: number;
}

describe('compileOutputCheck', () => {
  const check = compileOutputCheck(Weather);

  context('when the structured result conforms', () => {
    it('finds no problem', async () => {
      expect(await check({ city: 'Lisbon', degrees: 21 })).to.deep.equal([]);
    });
  });

  context('when the tool returned no structured result', () => {
    it('says it is missing', async () => {
      expect(await check(undefined)).to.deep.equal(['structuredContent: is missing (a tool with an output schema must return an object)']);
    });
  });

  context('when the structured result is not JSON', () => {
    it('says so instead of throwing', async () => {
      const circular: Record<string, unknown> = { city: 'x', degrees: 1 };
      circular.self = circular;
      const [problem] = await check(circular);
      expect(problem).to.match(/^structuredContent: is not JSON \(/);
      expect(await check({ city: 'x', degrees: 1n })).to.have.length(1);
    });
  });

  context('when it breaks a rule no schema keyword says, and one the schema says', () => {
    it('reports both, each property once', async () => {
      const problems = await check({ city: 7, degrees: 99, extra: true });
      expect(problems.filter((line) => line.startsWith('city: '))).to.have.length(1);
      expect(problems).to.include('degrees: must not be greater than 60');
      expect(problems.some((line) => line.startsWith('extra'))).to.equal(true);
    });
  });
});
