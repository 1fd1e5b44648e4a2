import 'reflect-metadata';
import { join } from 'node:path';
import { PhantomServer, skills } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';
import { ConformancePrompts, ConformanceResources, ConformanceTools, DefaultsForm, EnumsForm, UserResponse } from './conformance.fixtures';
import { ColorForm, ConfirmForm, ContextForm, NameForm, StatelessConformanceTools } from './stateless.fixtures';
import { DeleteConfirmation, PartialAnswer, TaskConformanceTools, TaskNameForm } from './tasks.fixtures';

/** The fixture the official conformance suite runs against (both protocol eras), written with the ordinary API. */
export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'phantom-conformance',
    version: '1.0.0',
    providers: [ConformanceTools, ConformanceResources, ConformancePrompts, StatelessConformanceTools, TaskConformanceTools],
    forms: [UserResponse, DefaultsForm, EnumsForm, NameForm, ColorForm, ContextForm, ConfirmForm, DeleteConfirmation, PartialAnswer, TaskNameForm],
    // The Skills extension (SEP-2640) over the sample's skill folder (samples/conformance/skills, beside
    // this file's source: the build does not copy it into dist/).
    extensions: [skills({ folder: join(__dirname, '../../../samples/conformance/skills') })],
    store: storeFromEnv(),
  });
}

if (require.main === module) void runSample(createServer());
