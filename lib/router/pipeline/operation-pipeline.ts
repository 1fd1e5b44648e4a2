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
  /** Calls the user's method (its value, or a promise of it); `target` is the tool or prompt name, or the resource URI. */
  readonly invoke: (input: unknown, ctx: Context, target: string) => unknown;
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

  /**
   * Serves one call of the target named `target` with the arguments as sent: at once when no step
   * had to wait (no guard, a synchronous pipe and handler), so such a call makes no promise here.
   */
  run(target: string, args: Readonly<Record<string, unknown>>, ctx: Context): JsonObject | Promise<JsonObject> {
    const { steps } = this;
    const call = this.hasMembers ? new OperationCall(steps.kind, steps.method, target, args, ctx, steps) : undefined;
    if (call && this.guards.length > 0) return this.admitted(call, target, args, ctx);
    return this.piped(call, target, args, ctx);
  }

  /** The guards first: a hidden target is unknown, any other refusal goes out as it is. */
  private async admitted(call: OperationCall, target: string, args: Readonly<Record<string, unknown>>, ctx: Context): Promise<JsonObject> {
    try {
      await admit(this.guards, call);
    } catch (error) {
      throw error instanceof HiddenError ? this.steps.policy.unknown(target) : error;
    }
    return this.piped(call, target, args, ctx);
  }

  /** The argument pipe, then the invocation with what it gave; refused arguments as the target's policy says. */
  private piped(call: OperationCall | undefined, target: string, args: Readonly<Record<string, unknown>>, ctx: Context): JsonObject | Promise<JsonObject> {
    const { steps } = this;
    if (!steps.pipe) return this.invoked(call, target, args, ctx);
    const piped = steps.pipe(args);
    if (piped instanceof Promise) {
      return piped.then((checked) => (checked.ok ? this.invoked(call, target, checked.value, ctx) : steps.policy.invalidArguments(target, checked.issues)));
    }
    return piped.ok ? this.invoked(call, target, piped.value, ctx) : steps.policy.invalidArguments(target, piped.issues);
  }

  /** The interceptors around the user's method, then the result mapper; a failure of either as the target's policy says. */
  private invoked(call: OperationCall | undefined, target: string, input: unknown, ctx: Context): JsonObject | Promise<JsonObject> {
    const { steps } = this;
    try {
      const value = call && this.interceptors.length > 0
        ? intercept(this.interceptors, call, async () => steps.invoke(input, ctx, target))
        : steps.invoke(input, ctx, target);
      if (value instanceof Promise) return this.invokedLater(value, target);
      // Mapping is part of the invocation's outcome: a value no result can carry fails as the handler would.
      const mapped = steps.map(value, target);
      return mapped instanceof Promise ? this.mappedLater(mapped, target) : mapped;
    } catch (error) {
      return this.failed(error, target);
    }
  }

  private async invokedLater(pending: Promise<unknown>, target: string): Promise<JsonObject> {
    try {
      const mapped = this.steps.map(await pending, target);
      return mapped instanceof Promise ? await mapped : mapped;
    } catch (error) {
      return this.failed(error, target);
    }
  }

  private async mappedLater(pending: Promise<JsonObject>, target: string): Promise<JsonObject> {
    try {
      return await pending;
    } catch (error) {
      return this.failed(error, target);
    }
  }

  /** A failed invocation: hidden means unknown (a guard or interceptor hid it), else the target's policy. */
  private failed(error: unknown, target: string): JsonObject {
    if (error instanceof HiddenError) throw this.steps.policy.unknown(target);
    return this.steps.policy.failed(error, target, this.steps.label, this.diagnostics);
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

  /** Runs `perform(params, ctx)` inside the members; what `perform` gives, as it gives it, when there are none. */
  run<T>(params: JsonObject, ctx: Context, perform: (params: JsonObject, ctx: Context) => T | Promise<T>): T | Promise<T> {
    if (!this.hasMembers) return perform(params, ctx);
    return this.withMembers(params, ctx, perform);
  }

  private async withMembers<T>(params: JsonObject, ctx: Context, perform: (params: JsonObject, ctx: Context) => T | Promise<T>): Promise<T> {
    const call = new OperationCall(this.kind, this.method, undefined, params, ctx);
    try {
      if (this.guards.length > 0) await admit(this.guards, call);
      if (this.interceptors.length === 0) return await perform(params, ctx);
      return (await intercept(this.interceptors, call, async () => perform(params, ctx))) as T;
    } catch (error) {
      // Hidden means unknown: a method a guard hides answers as one this server does not have.
      throw error instanceof HiddenError ? ProtocolError.methodNotFound(this.method) : error;
    }
  }
}
