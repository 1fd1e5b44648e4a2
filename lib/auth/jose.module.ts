import type * as Jose from 'jose';
import { lazyModule } from '../core/lazy-module';

/** jose, loaded with the first token verified: a server without OAuth never loads it. */
export const jose = lazyModule(() => require('jose') as typeof Jose);
