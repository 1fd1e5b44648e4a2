/**
 * The framework's internal schema modules, which the package does not export: typed from the
 * declarations `npm run build` writes, loaded from the build next to this one (dist/lib).
 */
import type * as ArgumentValidator from '../../dist/lib/schema/argument-validator';
import type * as ClassPropertyReader from '../../dist/lib/schema/class-property.reader';
import type * as ClassSchemaCompiler from '../../dist/lib/schema/class-schema.compiler';
import type * as CompiledValidator from '../../dist/lib/schema/compiled-validator';
import type * as JsonSchemaTypes from '../../dist/lib/schema/json-schema.types';
import type * as MetadataAdapter from '../../dist/lib/schema/validation-metadata.adapter';

export type JsonSchema = JsonSchemaTypes.JsonSchema;

/* eslint-disable @typescript-eslint/no-require-imports */
export const internals = {
  ...(require('../../lib/schema/argument-validator') as typeof ArgumentValidator),
  ...(require('../../lib/schema/class-property.reader') as typeof ClassPropertyReader),
  ...(require('../../lib/schema/class-schema.compiler') as typeof ClassSchemaCompiler),
  ...(require('../../lib/schema/compiled-validator') as typeof CompiledValidator),
  ...(require('../../lib/schema/json-schema.types') as typeof JsonSchemaTypes),
  ...(require('../../lib/schema/validation-metadata.adapter') as typeof MetadataAdapter),
};
