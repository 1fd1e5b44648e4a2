import { recordMisplaced, writeField } from '../metadata/metadata-store';
import type { FieldOptions } from '../metadata/field-options';

export type { FieldFormat, FieldOptions, TitledValues } from '../metadata/field-options';

/**
 * Describes a DTO or form property beyond what its validators say.
 *
 * @example
 * class ForecastArgs {
 *   @Field({ description: 'City name', examples: ['Paris'] }) @IsString() city!: string;
 *   @Field({ title: 'Class', oneOf: { eco: 'Economy', biz: 'Business' } }) @IsIn(['eco', 'biz']) cls = 'eco';
 * }
 */
export function Field(options: FieldOptions = {}): PropertyDecorator {
  return (target, propertyKey) => {
    if (typeof propertyKey !== 'string') {
      recordMisplaced(target, { decorator: '@Field', propertyKey: String(propertyKey) });
      return;
    }
    writeField(target, propertyKey, options);
  };
}
