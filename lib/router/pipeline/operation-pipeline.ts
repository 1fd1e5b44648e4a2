import type { Context } from '../../context/context';
import type { Diagnostics } from '../../core/diagnostics';
import { HiddenError, ProtocolError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';
import type { ArgumentPipe } from './argument-pipe';
import type { TargetErrorPolicy } from './error-policy';
import { OperationCall, type OperationKind, type ServedBy } from './execution-context';
import type { CanActivate } from './guard';
import type { Interceptor } from './interceptor';
import { admit, intercept } from './member-chain';

/** How one target (a tool, a prompt, a resource or template) is served, compiled once from its definition. */
export interface TargetSteps extends ServedBy {
  readonly kind: OperationKind;
  readonly method: string;
  /** `Class#method`, for diagnostics. */
  readonly label: string;
  /** The argument pipe; absent when the handler takes the arguments as sent. */
  readonly pipe?: ArgumentPipe;
  /** Calls the user's method; `target` is the tool or prompt name, or the resource URI. */
  readonly invoke: (input: unknown, ctx: Context, target: string) => Promise<unknown>;
  /** The result mapper: what the handler (or an interceptor) returned -> the MCP result. */
  readonly map: (value: unknown, target: string) => JsonObject | Promise<JsonObject>;
  readonly policy: TargetErrorPolicy;
}

/**
 * The operation pipeline of one target: guards -> argument pipe -> interceptors around the
 * invocation -> result mapper, with the target's error policy. Resolving the target (lookup and
 * visibility) is the method handler's step before it. Built once per target, so a call allocates
 * nothing for members it does not have: no execution context without guards or interceptors, no
 * chain without interceptors.
 */
export class TargetPipeline {
  private readonly hasMembers: boolean;

  constructor(
    private readonly steps: TargetSteps,
    private readonly guards: readonly CanActivate[],
    private readonly interceptors: readonly Interceptor[],
    private readonly diagnostics: Diagnostics,
  ) {
    this.hasMembers = guards.length > 0 || interceptors.length > 0;
  }

  /** Serves one call of the target named `target` with the arguments as sent. */
  async run(target: string, args: Readonly<Record<string, unknown>>, ctx: Context): Promise<JsonObject> {
    const { steps } = this;
    const call = this.hasMembers ? new OperationCall(steps.kind, steps.method, target, args, ctx, steps) : undefined;
    try {
      if (call && this.guards.length > 0) await admit(this.guards, call);
      let input: unknown = args;
      if (steps.pipe) {
        const pending = steps.pipe(args);
        const piped = pending instanceof Promise ? await pending : pending;
        if (!piped.ok) return steps.policy.invalidArguments(target, piped.issues);
        input = piped.value;
      }
      try {
        const value = call && this.interceptors.length > 0
          ? await intercept(this.interceptors, call, () => steps.invoke(input, ctx, target))
          : await steps.invoke(input, ctx, target);
        // Mapping is part of the invocation's outcome: a value no result can carry fails as the handler would.
        const mapped = steps.map(value, target);
        return mapped instanceof Promise ? await mapped : mapped;
      } catch (error) {
        if (error instanceof HiddenError) throw error;
        return steps.policy.failed(error, target, steps.label, this.diagnostics);
      }
    } catch (error) {
      throw error instanceof HiddenError ? steps.policy.unknown(target) : error;
    }
  }
}

/**
 * The pipeline of a method without a target (lists, completion, and the protocol's own methods:
 * ping, logging, subscriptions, discover): the server's guards, then its interceptors around what
 * the method does. No pipe: each method checks its own params.
 */
export class MethodPipeline {
  private readonly hasMembers: boolean;

  constructor(
    private readonly kind: OperationKind,
    private readonly method: string,
    private readonly guards: readonly CanActivate[],
    private readonly interceptors: readonly Interceptor[],
  ) {
    this.hasMembers = guards.length > 0 || interceptors.length > 0;
  }

  /** Runs `perform(params, ctx)` inside the members. */
  async run<T>(params: JsonObject, ctx: Context, perform: (params: JsonObject, ctx: Context) => Promise<T>): Promise<T> {
    if (!this.hasMembers) return perform(params, ctx);
    const call = new OperationCall(this.kind, this.method, undefined, params, ctx);
    try {
      if (this.guards.length > 0) await admit(this.guards, call);
      if (this.interceptors.length === 0) return await perform(params, ctx);
      return (await intercept(this.interceptors, call, () => perform(params, ctx))) as T;
    } catch (error) {
      // Hidden means unknown: a method a guard hides answers as one this server does not have.
      throw error instanceof HiddenError ? ProtocolError.methodNotFound(this.method) : error;
    }
  }
}
