import { Context } from '../context/context';
import { hasParamTypes, readParamTypes, type Constructor } from '../metadata/metadata-store';
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

export interface SignatureOptions {
  /** The argument class the decorator names (`input:`), which needs no metadata to be found. */
  readonly input?: Constructor;
  /** The decorator has an `input` option, so the remedy for missing metadata may suggest it. */
  readonly canNameInput?: boolean;
}

/**
 * Reads a handler's signature from `design:paramtypes`: where its context goes (the parameter typed
 * `Context`, else the one after the arguments) and which DTO, if any, its first parameter names.
 */
export function readHandlerSignature(proto: object, method: string, options: SignatureOptions = {}): HandlerSignature {
  const explicitInput = options.input;
  const emitted = readParamTypes(proto, method);
  // A method with parameters and no emitted types was built without metadata: its argument class
  // and its Context position are unknown, and guessing would skip validation or pass the wrong value.
  // (Asked only when nothing was read: metadata set to undefined still counts as emitted.)
  if (emitted === undefined && !explicitInput && !hasParamTypes(proto, method) && takesParameters(proto, method)) {
    return { place: placeAt(1), problem: missingMetadata(options.canNameInput === true) };
  }
  const types = emitted ?? [];
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

function takesParameters(proto: object, method: string): boolean {
  const fn = (proto as Record<string, unknown>)[method];
  return typeof fn === 'function' && fn.length > 0;
}

function missingMetadata(canNameInput: boolean): string {
  return 'it has parameters but no design:paramtypes metadata, so neither its argument class nor its Context parameter is known '
    + '(the build dropped decorator metadata, as tsx and esbuild do). Compile with tsc and "experimentalDecorators": true, '
    + '"emitDecoratorMetadata": true, and import \'reflect-metadata\' before your classes'
    + (canNameInput ? '; or name the argument class with { input: ArgsClass }' : '');
}

function placeAt(ctxIndex: number): (args: unknown, ctx: Context) => unknown[] {
  // The common `(args, ctx)` gets a packed array literal; a longer list needs holes between them.
  if (ctxIndex === 1) return (args, ctx) => [args, ctx];
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
  // Not async: a synchronous method's value goes on without a promise (the pipeline catches a
  // synchronous throw as it would a rejection).
  return (args, ctx) => {
    instance ??= resolve();
    const fn = (instance as Record<string, (...params: unknown[]) => unknown>)[method];
    const value = fn.apply(instance, signature.place(args, ctx));
    return isForeignThenable(value) ? Promise.resolve(value) : value;
  };
}

/** A thenable that is not a native promise (another library's): adopted, as an async method's result would be. */
function isForeignThenable(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !(value instanceof Promise) && typeof (value as { then?: unknown }).then === 'function';
}
