import { readClassProperties, type ClassProperty } from './class-property.reader';
import { applyFieldOptions } from './field-options.applier';
import { cloneValue, deepFreeze, type JsonSchema } from './json-schema.types';
import { converterGeneration, findSchemaConverter } from './schema-converter.registry';

/** What `design:type` alone says, before any validator narrows it. */
const DESIGN_TYPE_SCHEMAS = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Array, { type: 'array' }],
  [Date, { type: 'string', format: 'date-time' }],
]);

const cache = new WeakMap<Function, { generation: number; schema: JsonSchema }>();

/**
 * Compiles a DTO class to the JSON Schema (2020-12) a client sees: one object schema with a
 * property per validated or `@Field`-described property. A nested class used once is inlined; one
 * used twice or recursively goes in `$defs` once and is referenced (`#` for the root itself).
 * Cached per class; the result is deeply frozen.
 *
 * @example
 * class ForecastArgs {
 *   @Field({ description: 'City name' }) @IsString() @MinLength(1) city!: string;
 *   @IsOptional() @IsInt() @Min(1) @Max(14) days = 3;
 * }
 * compileClassSchema(ForecastArgs);
 * // { type: 'object', additionalProperties: false, required: ['city'], properties: {
 * //     city: { type: 'string', minLength: 1, description: 'City name' },
 * //     days: { type: 'integer', minimum: 1, maximum: 14, default: 3 } } }
 */
export function compileClassSchema(cls: Function): JsonSchema {
  const hit = cache.get(cls);
  if (hit && hit.generation === converterGeneration()) return hit.schema;
  const schema = deepFreeze(new SchemaEmitter(cls).emit());
  cache.set(cls, { generation: converterGeneration(), schema });
  return schema;
}

/** One compilation: decides which classes are shared, then writes each object schema once. */
class SchemaEmitter {
  private readonly defNames = new Map<Function, string>();

  constructor(private readonly root: Function) {
    this.planDefinitions();
  }

  emit(): JsonSchema {
    const schema = this.objectSchema(this.root);
    if (this.defNames.size) {
      schema.$defs = Object.fromEntries([...this.defNames].map(([cls, name]) => [name, this.objectSchema(cls)]));
    }
    return schema;
  }

  /**
   * Walks the class graph depth-first, counting references. Every cycle has a back edge to a class
   * on the stack, so sending back-edge targets to `$defs` is enough to make inlining terminate.
   */
  private planDefinitions(): void {
    // Most argument classes nest nothing: then there is nothing to plan (start-up compiles one per tool).
    if (!readClassProperties(this.root).some((property) => property.nestedTypes.length > 0)) return;
    const counts = new Map<Function, number>();
    const recursive = new Set<Function>();
    const visited = new Set<Function>([this.root]);
    const visit = (cls: Function, stack: Function[]): void => {
      for (const property of readClassProperties(cls)) {
        for (const nested of property.nestedTypes) {
          counts.set(nested, (counts.get(nested) ?? 0) + 1);
          if (stack.includes(nested)) recursive.add(nested);
          else if (!visited.has(nested)) {
            visited.add(nested);
            visit(nested, [...stack, nested]);
          }
        }
      }
    };
    visit(this.root, [this.root]);

    const taken = new Set<string>();
    for (const cls of visited) {
      if (cls === this.root || !(recursive.has(cls) || (counts.get(cls) ?? 0) > 1)) continue;
      this.defNames.set(cls, uniqueName(cls.name || 'Anonymous', taken));
    }
  }

  private objectSchema(cls: Function): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of readClassProperties(cls)) {
      properties[property.name] = this.propertySchema(property);
      if (!property.optional && property.defaultValue === undefined) required.push(property.name);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    schema.additionalProperties = false;
    return schema;
  }

  private propertySchema(property: ClassProperty): JsonSchema {
    let schema: JsonSchema = { ...DESIGN_TYPE_SCHEMAS.get(property.designType) };
    if (property.nestedTypes.length) {
      const nested = this.nestedSchema(property.nestedTypes);
      const isList = schema.type === 'array' || property.rules.some((r) => r.each);
      schema = isList ? { type: 'array', items: nested } : nested;
    }
    for (const rule of property.rules) {
      findSchemaConverter(rule.name)?.(rule, rule.each ? itemsOf(schema) : schema);
    }
    applyFieldOptions(schema, property.field);
    if (property.defaultValue !== undefined) schema.default = cloneValue(property.defaultValue);
    return schema;
  }

  private nestedSchema(types: readonly Function[]): JsonSchema {
    const refs = types.map((cls) => this.refOrInline(cls));
    return refs.length === 1 ? refs[0] : { anyOf: refs };
  }

  private refOrInline(cls: Function): JsonSchema {
    if (cls === this.root) return { $ref: '#' };
    const name = this.defNames.get(cls);
    return name ? { $ref: `#/$defs/${name}` } : this.objectSchema(cls);
  }
}

/** The schema an `each: true` rule narrows; the property becomes an array if nothing said so. */
function itemsOf(schema: JsonSchema): JsonSchema {
  schema.type ??= 'array';
  if (schema.items === null || typeof schema.items !== 'object') schema.items = {};
  return schema.items as JsonSchema;
}

/** Two different classes may share a name; the second becomes `Name2`. */
function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}
