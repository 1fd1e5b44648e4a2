import { isDtoClass, readClassProperties, type ClassProperty } from './class-property.reader';
import { readTransformTypes } from './validation-metadata.adapter';

/**
 * One check of an argument class property: a problem line without its label, or `undefined`.
 * Each catches a property whose advertised schema and validation would silently disagree.
 */
type PropertyCheck = (property: ClassProperty, cls: Function) => string | undefined;

/** `design:type`s that a JSON Schema type describes and class-transformer copies as they are. */
const JSON_TYPES: ReadonlySet<unknown> = new Set<unknown>([String, Number, Boolean, Array, Date]);
/** Rules that say whether a value must be there, not what it must be. */
const PRESENCE_RULES: ReadonlySet<string> = new Set(['isOptional', 'conditionalValidation']);

/** Why a `design:type` says nothing about the value, by type; other classes fall back to their name. */
const UNTYPED_REASONS = new Map<unknown, string>([
  [Object, 'its type is erased at run time (TypeScript emits Object for an interface, a union, any and unknown)'],
  [undefined, 'it has no design:type metadata'],
  [BigInt, 'it is a bigint, which JSON cannot carry (declare a number or a string)'],
]);

const REMEDY = 'and no validator says what it accepts, so any value reaches the handler. '
  + 'Add one (@IsString(), @IsNumber(), @IsIn([...]), @IsObject(), ...), or @Allow() to accept anything';

const nestedWithoutType: PropertyCheck = (property, cls) => {
  if (!property.rules.some((r) => r.type === 'nestedValidation') || readTransformTypes(cls, property.name).length > 0) return undefined;
  if (property.designType === Array || property.rules.some((r) => r.type === 'nestedValidation' && r.each)) {
    return '@ValidateNested({ each: true }) needs @Type(() => ItemClass): TypeScript erases the element type, so elements are neither described nor validated';
  }
  const name = isDtoClass(property.designType) ? property.designType.name : 'ItemClass';
  return `@ValidateNested() needs @Type(() => ${name}): without it class-transformer builds no instance, so nothing inside is validated`;
};

const nestedWithoutValidation: PropertyCheck = (property, cls) => {
  const described = property.nestedTypes.filter((nested) => readClassProperties(nested).length > 0);
  if (!described.length || property.rules.some((r) => r.type === 'nestedValidation')) return undefined;
  const names = described.map((nested) => nested.name).join(' | ');
  const typed = readTransformTypes(cls, property.name).length > 0;
  return `is a nested ${names} but has no @ValidateNested()${typed ? '' : ` and @Type(() => ${described[0].name})`}, so nothing inside it is validated`;
};

const untypedWithoutValidator: PropertyCheck = (property, cls) => {
  const { designType } = property;
  if (JSON_TYPES.has(designType) || isDtoClass(designType)) return undefined;
  if (property.rules.some((r) => !PRESENCE_RULES.has(r.name)) || property.field.oneOf !== undefined) return undefined;
  if (readTransformTypes(cls, property.name).length > 0) return undefined;
  const reason = UNTYPED_REASONS.get(designType) ?? `its type ${typeof designType === 'function' ? designType.name : String(designType)} has no JSON form`;
  return `${reason}, ${REMEDY}`;
};

const CHECKS: readonly PropertyCheck[] = [nestedWithoutType, nestedWithoutValidation, untypedWithoutValidator];

/**
 * What would make an argument class advertise one thing and validate another, one line per
 * property with a `Class#property` label, for the class and every class nested in it; `[]` when
 * fine. The scanner reports them at start-up with the handler's label in front.
 *
 * @example
 * class Trip { @ValidateNested({ each: true }) stops!: Stop[]; }   // no @Type(() => Stop)
 * argumentClassProblems(Trip);
 * // ['Trip#stops: @ValidateNested({ each: true }) needs @Type(() => ItemClass): ...']
 */
export function argumentClassProblems(root: Function): string[] {
  const problems: string[] = [];
  const seen = new Set<Function>();
  const visit = (cls: Function): void => {
    if (seen.has(cls)) return;
    seen.add(cls);
    for (const property of readClassProperties(cls)) {
      for (const check of CHECKS) {
        const problem = check(property, cls);
        if (problem) problems.push(`${cls.name || 'anonymous class'}#${property.name}: ${problem}`);
      }
      property.nestedTypes.forEach(visit);
    }
  };
  visit(root);
  return problems;
}
