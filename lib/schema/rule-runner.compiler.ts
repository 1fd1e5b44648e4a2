import { readPropertyRules, type PropertyRules } from './validation-metadata.adapter';

/** `true` when class-validator's `validate` would find no error, `false` when it would, `undefined` when the compiled rules cannot say. */
export type InstanceCheck = (instance: object) => boolean | undefined;

/**
 * Compiles class-validator's executor for every class in `classes` (the classes the instance
 * builder reached): one check per class, running each property's rules in the executor's order,
 * and `@ValidateNested` into the checks of the nested values' own classes. Returns the check for
 * instances of any of them, or `undefined` when one of them has a rule the compiler does not run.
 */
export function compileRuleRunner(classes: Iterable<Function>): InstanceCheck | undefined {
  const byClass = new Map<Function, InstanceCheck>();
  const check: InstanceCheck = (instance) => {
    const own = byClass.get(instance.constructor);
    return own ? own(instance) : undefined;
  };
  const nested = (value: unknown): boolean | undefined => nestedVerdict(value, check);
  for (const cls of classes) {
    const properties = readPropertyRules(cls);
    if (!properties) return undefined;
    byClass.set(cls, classCheck(properties, nested));
  }
  return check;
}

function classCheck(properties: readonly PropertyRules[], nested: (value: unknown) => boolean | undefined): InstanceCheck {
  const runners = properties.map((p) => propertyRunner(p, nested));
  return (instance) => {
    for (const run of runners) {
      const verdict = run(instance as Record<string, unknown>);
      if (verdict !== true) return verdict;
    }
    return true;
  };
}

function propertyRunner(p: PropertyRules, nested: (value: unknown) => boolean | undefined): (object: Record<string, unknown>) => boolean | undefined {
  const { property, conditions, rules } = p;
  return (object) => {
    const value = object[property];
    // The executor evaluates every condition, then skips the property if any is false.
    let applies = true;
    for (const condition of conditions) if (!condition(object, value)) applies = false;
    if (!applies) return true;
    for (const rule of rules) {
      const verdict = rule(value, object);
      if (verdict !== true) return verdict;
    }
    return p.nested ? nested(value) : true;
  };
}

/**
 * class-validator's nested validation: `undefined` passes, an array's items are each validated
 * (nested arrays too), an object by its own class's rules, anything else fails.
 */
function nestedVerdict(value: unknown, check: InstanceCheck): boolean | undefined {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (const item of value) {
      const verdict = nestedVerdict(item, check);
      if (verdict !== true) return verdict;
    }
    return true;
  }
  if (!(value instanceof Object)) return false;
  if (value instanceof Date) return true; // no rules of its own
  return check(value);
}
