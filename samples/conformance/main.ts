import 'reflect-metadata';
import { PhantomServer } from '../../lib';
import { runSample } from '../run-sample';
import { ConformancePrompts, ConformanceResources, ConformanceTools, DefaultsForm, EnumsForm, UserResponse } from './conformance.fixtures';

/** The fixture the official conformance suite runs against, written with the ordinary API. */
export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'phantom-conformance',
    version: '1.0.0',
    providers: [ConformanceTools, ConformanceResources, ConformancePrompts],
    forms: [UserResponse, DefaultsForm, EnumsForm],
  });
}

if (require.main === module) void runSample(createServer());
