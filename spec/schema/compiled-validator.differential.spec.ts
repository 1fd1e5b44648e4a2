import 'reflect-metadata';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Constructor } from '../../lib/metadata/metadata-store';
import { checkArguments, checkArgumentsFully } from '../../lib/schema/argument-validator';
import { validateFormContent } from '../../lib/schema/form-content.validator';
import type { FormElicitation } from '../../lib/schema/form-elicitation';
import type { Validated } from '../../lib/schema/json-schema.types';
import { compileOutputCheck, compileOutputCheckWith } from '../../lib/schema/output-validator';
import { classShape, hostile, materialize, objectFor } from './support/dto-shapes.arbitraries';

/**
 * The invariant of the compiled validator: for any DTO shape and any input, argument validation
 * with it answers exactly as class-transformer + class-validator alone (as the framework runs
 * them) do: the same verdict, the same issues, and an equal instance (same classes at every
 * depth, same own properties, same values). Shapes are random classes decorated at run time;
 * inputs are values for them, right, at the edges, hostile, or not objects at all. Output DTOs
 * and `@Elicit` forms go through the same validator and are compared the same way.
 * `VALIDATOR_SEED=n` replays a run; fast-check prints the seed and the shrunk shape and input.
 */

const SEED = process.env.VALIDATOR_SEED === undefined ? undefined : Number(process.env.VALIDATOR_SEED);
const RUNS = Number(process.env.VALIDATOR_RUNS ?? 300);
const INPUTS_PER_SHAPE = 12;

/** Where two validated values differ (`undefined` when they do not): classes, own keys and values, at every depth. */
function difference(a: unknown, b: unknown, path = 'value'): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return `${path}: ${typeof a} ${String(a)} vs ${typeof b} ${String(b)}`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: ${a.constructor?.name} vs ${b.constructor?.name}`;
  if (a instanceof Date) return Object.is(a.getTime(), (b as Date).getTime()) ? undefined : `${path}: ${String(a)} vs ${String(b)}`;
  const keysA = Reflect.ownKeys(a).map(String);
  const keysB = Reflect.ownKeys(b).map(String);
  if (keysA.join() !== keysB.join()) return `${path}: keys [${keysA.join()}] vs [${keysB.join()}]`;
  for (const key of keysA) {
    const found = difference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

function expectSame(compiled: Validated<unknown>, reference: Validated<unknown>, label: string): void {
  expect(compiled.ok, `${label}: verdict`).to.equal(reference.ok);
  if (!compiled.ok || !reference.ok) {
    expect(compiled.ok ? [] : compiled.issues, `${label}: issues`).to.deep.equal(reference.ok ? [] : reference.issues);
    return;
  }
  expect(difference(compiled.value, reference.value), `${label}: instance`).to.equal(undefined);
  expect(compiled.value, `${label}: not the reference's own object`).not.to.equal(reference.value);
}

describe('compiled validator (differential, against class-transformer + class-validator)', function () {
  this.timeout(60_000);
  const tally = { cases: 0, accepted: 0, answeredByCompiled: 0 };

  after(() => {
    // Not an assertion of speed: a record of how much of the generated space the compiled path decided.
    console.log(`      ${tally.cases} inputs, ${tally.accepted} accepted, ${tally.answeredByCompiled} of those by the compiled validator`);
  });

  it('accepts and rejects exactly what the full path does, with equal instances and the same issues', async () => {
    const shapeAndInputs = classShape().chain((shape) => fc.tuple(
      fc.constant(shape),
      fc.array(fc.oneof({ arbitrary: objectFor(shape), weight: 12 }, { arbitrary: hostile, weight: 1 }), { minLength: INPUTS_PER_SHAPE, maxLength: INPUTS_PER_SHAPE }),
    ));
    await fc.assert(
      fc.asyncProperty(shapeAndInputs, async ([shape, inputs]) => {
        const cls = materialize(shape) as Constructor;
        for (const input of inputs) {
          tally.cases += 1;
          const pending = checkArguments(cls, input);
          const compiled = await pending;
          const reference = await checkArgumentsFully(cls, input);
          expectSame(compiled, reference, JSON.stringify(input) ?? String(input));
          if (reference.ok) tally.accepted += 1;
          if (compiled.ok && !(pending instanceof Promise)) tally.answeredByCompiled += 1;
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: false },
    );
    // A spec that cannot fail proves nothing: most accepted inputs must have been decided by the compiled path.
    expect(tally.answeredByCompiled, 'inputs the compiled validator decided').to.be.greaterThan(tally.accepted * 0.6);
  });

  it('answers the same for output DTOs and @Elicit form classes, which validate through it', async () => {
    const shapeAndInput = classShape().chain((shape) => fc.tuple(fc.constant(shape), fc.array(objectFor(shape), { minLength: 4, maxLength: 4 })));
    await fc.assert(
      fc.asyncProperty(shapeAndInput, async ([shape, inputs]) => {
        const cls = materialize(shape) as Constructor;
        const output = compileOutputCheck(cls);
        const outputReference = compileOutputCheckWith(cls, async (c, value) => checkArgumentsFully(c, value));
        const form = { formClass: cls } as unknown as FormElicitation;
        for (const input of inputs) {
          const label = JSON.stringify(input) ?? String(input);
          expect(await output(input), `${label}: output issues`).to.deep.equal(await outputReference(input));
          expectSame(await validateFormContent(form, input), await checkArgumentsFully(cls, input), `${label}: form`);
        }
      }),
      { numRuns: Math.ceil(RUNS / 6), seed: SEED },
    );
  });
});
