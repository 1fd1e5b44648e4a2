import { Context } from '../context/context';
import { readParamTypes, type Constructor } from '../metadata/metadata-store';
import type { Invoker } from './definitions';

/** Parameter types that say nothing about a DTO: the handler gets the plain object. */
const UNTYPED: ReadonlySet<unknown> = new Set([undefined, Object, Function]);
/** Parameter types that cannot carry MCP arguments, which are always an object. */
const NOT_A_DTO: ReadonlySet<unknown> = new Set([String, Number, Boolean, Array, Symbol, BigInt, Promise, Date]);

export interface HandlerSignature {
  /** The argument DTO, if the first parameter names one. */
  readonly inputClass?: Constructor;
  /** Why the signature cannot work, if it cannot. */
  readonly problem?: string;
  /** Turns (arguments, context) into the method's positional parameters. */
  readonly place: (args: unknown, ctx: Context) => unknown[];
}

/**
 * Reads a handler's signature from `design:paramtypes`: where its context goes (the parameter typed
 * `Context`, else the one after the arguments) and which DTO, if any, its first parameter names.
 */
export function readHandlerSignature(proto: object, method: string, explicitInput?: Constructor): HandlerSignature {
  const types = readParamTypes(proto, method);
  const ctxIndex = types.indexOf(Context);
  const place = ctxIndex === 0 ? (_args: unknown, ctx: Context) => [ctx] : placeAt(ctxIndex > 0 ? ctxIndex : 1);
  if (explicitInput) return { inputClass: explicitInput, place };
  const first = ctxIndex === 0 ? undefined : types[0];
  if (UNTYPED.has(first)) return { place };
  if (NOT_A_DTO.has(first) || typeof first !== 'function') {
    return { place, problem: `its first parameter must be an argument class or a plain object, not ${describe(first)}` };
  }
  return { inputClass: first as Constructor, place };
}

function placeAt(ctxIndex: number): (args: unknown, ctx: Context) => unknown[] {
  return (args, ctx) => {
    const positional: unknown[] = new Array(ctxIndex + 1);
    positional[0] = args;
    positional[ctxIndex] = ctx;
    return positional;
  };
}

function describe(type: unknown): string {
  return typeof type === 'function' ? type.name : String(type);
}

/**
 * Binds a method to its provider: the instance is resolved from the container on first use (so
 * construction errors surface as call errors, not at import), then reused.
 */
export function bindInvoker(resolve: () => object, method: string, signature: HandlerSignature): Invoker {
  let instance: object | undefined;
  return async (args, ctx) => {
    instance ??= resolve();
    const fn = (instance as Record<string, (...params: unknown[]) => unknown>)[method];
    return fn.apply(instance, signature.place(args, ctx));
  };
}
