/**
 * Micro-bench of argument validation: the compiled validator against class-transformer +
 * class-validator (the full path, as the framework runs it), per call, for a flat, a nested and
 * an array DTO, valid input and invalid input; plus, on the flat DTO, the same rules behind
 * generated code (`new Function`, as Ajv compiles schemas) instead of composed closures.
 * Ratios within one run (the machine may be shared): every contender runs in alternating rounds
 * and each figure is the median of its rounds.
 *
 *   npm run bench:validators            # builds, then prints the table
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsDateString, IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { RegisterArgs } from './fixtures/phantom.fixtures';
import { generatedFlatValidator } from './validators/generated-flat.validator';
import { internals } from './validators/internals';

const { checkArguments, checkArgumentsFully, compileClassSchema, compiledValidator } = internals;
type Constructor = new () => object;

class Ticket {
  @IsString() @Length(3, 80) title!: string;
  @IsIn(['low', 'normal', 'high']) priority = 'normal';
  @IsEmail() reporter!: string;
  @IsOptional() @IsDateString() due?: string;
  @IsInt() @Min(1) @Max(10) estimate!: number;
}

class Address {
  @IsString() @Length(1, 60) street!: string;
  @IsString() city!: string;
  @IsString() @Length(4, 10) zip!: string;
}
class Customer {
  @IsString() name!: string;
  @IsEmail() email!: string;
  @ValidateNested() @Type(() => Address) address!: Address;
}
class Order {
  @IsString() reference!: string;
  @ValidateNested() @Type(() => Customer) customer!: Customer;
  @ValidateNested() @Type(() => Address) shipTo!: Address;
}

class Line {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
  @IsOptional() @IsString() note?: string;
}
class Cart {
  @ValidateNested({ each: true }) @Type(() => Line) @ArrayMinSize(1) @ArrayMaxSize(50) lines!: Line[];
  @IsString({ each: true }) tags: string[] = [];
}

const address = { street: '1 Main St', city: 'Oslo', zip: '0150' };
const CASES = [
  {
    name: "realistic (the bench's `register` tool)", cls: RegisterArgs,
    valid: { name: 'Ada Lovelace', age: 36, email: 'ada@example.com', tags: ['math', 'engines'], birthday: '1815-12-10' },
    invalid: { name: '', age: 300, email: 'ada', tags: [], birthday: '1815-13-10' },
  },
  { name: 'flat (5 fields)', cls: Ticket, valid: { title: 'Printer on fire', priority: 'high', reporter: 'ada@example.com', due: '2026-12-24', estimate: 3 }, invalid: { title: 'x', reporter: 'nope', estimate: 30 } },
  { name: 'nested (2 levels)', cls: Order, valid: { reference: 'A-1', customer: { name: 'Ada', email: 'ada@example.com', address }, shipTo: address }, invalid: { reference: 'A-1', customer: { name: 'Ada', email: 'x', address }, shipTo: {} } },
  { name: 'array (5 nested items)', cls: Cart, valid: { lines: [1, 2, 3, 4, 5].map((n) => ({ sku: `S${n}`, quantity: n })), tags: ['a', 'b'] }, invalid: { lines: [{ sku: 'S1', quantity: 0 }], tags: [1] } },
] as const;

type Run = (input: unknown) => unknown;

/**
 * Mean CPU time (user + system, this process) per call over `calls` calls, in ns: CPU time, not
 * wall time, so that the other processes of a shared machine do not count. Awaited as the
 * argument pipe awaits, or not at all for a synchronous contender.
 */
async function perCall(run: Run, input: unknown, calls: number, sync: boolean): Promise<number> {
  const start = process.cpuUsage();
  if (sync) for (let i = 0; i < calls; i++) run(input);
  else for (let i = 0; i < calls; i++) await run(input);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / calls;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function compare(contenders: Record<string, Run>, input: unknown, { rounds = 11, calls = 4000, sync = false } = {}): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (const run of Object.values(contenders)) await perCall(run, input, calls, sync); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? Object.keys(contenders).reverse() : Object.keys(contenders);
    for (const name of order) samples[name].push(await perCall(contenders[name], input, calls, sync));
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

async function main(): Promise<void> {
  const rows: string[] = ['| DTO | input | full path (CPU ns/call) | compiled (CPU ns/call) | full / compiled |', '| --- | --- | ---: | ---: | ---: |'];
  const compileTimes: string[] = [];
  for (const c of CASES) {
    const cls = c.cls as Constructor;
    const schema = compileClassSchema(cls);
    const start = process.hrtime.bigint();
    if (!compiledValidator(cls, schema)) throw new Error(`${c.name}: not compiled`);
    compileTimes.push(`${c.name} ${(Number(process.hrtime.bigint() - start) / 1000).toFixed(0)} µs`);
    for (const kind of ['valid', 'invalid'] as const) {
      const r = await compare({ full: (i) => checkArgumentsFully(cls, i), compiled: (i) => checkArguments(cls, i) }, c[kind]);
      rows.push(`| ${c.name} | ${kind} | ${r.full.toFixed(0)} | ${r.compiled.toFixed(0)} | ${(r.full / r.compiled).toFixed(2)}x |`);
    }
  }
  console.log(rows.join('\n'));
  console.log(`\ncompiling once (wall time, at a class's first call): ${compileTimes.join('; ')}`);

  // Closures against generated code, same rules, same input already picked: only the validator itself.
  const schema = compileClassSchema(Ticket);
  const closures = compiledValidator(Ticket, schema)!;
  const generated = generatedFlatValidator(Ticket, schema)!;
  const plain = { ...CASES[1].valid };
  if (!closures(plain) || !generated(plain)) throw new Error('the flat DTO should pass both');
  const r = await compare({ closures: (i) => closures(i as Record<string, unknown>), generated: (i) => generated(i as Record<string, unknown>) }, plain, { calls: 20_000, sync: true });
  console.log(`\nflat validator alone (CPU per call): closures ${r.closures.toFixed(0)} ns, generated code ${r.generated.toFixed(0)} ns (closures / generated ${(r.closures / r.generated).toFixed(2)}x)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
