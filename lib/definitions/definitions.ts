import type { Context } from '../context/context';
import type { Constructor } from '../metadata/metadata-store';
import type { WirePrompt, WireResource, WireResourceTemplate, WireTool } from '../core/wire.types';
import type { UriTemplate } from '../uri-template/uri-template';
import type { CacheHint } from '../metadata/cache-hint';
import type { PipelineMembersRecord } from '../metadata/pipeline-options';
import type { OutputCheck, SchemaCheck } from '../schema';

/**
 * What the scanner compiles from the user's decorated classes. The router sees only these:
 * names defaulted, schemas computed, wire descriptors frozen, invokers bound.
 */

/**
 * Calls the user's method on its provider instance, placing the arguments and the context.
 * `target` is what the call names (the tool or prompt name, the resource URI read). Gives the
 * method's value, a native promise when it waits; throws what a synchronous method throws.
 */
export type Invoker = (args: unknown, ctx: Context, target?: string) => unknown;

/** Completion values for one argument or template variable. */
export interface CompletionOutcome {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore?: boolean;
}
export type Completer = (value: string, args: Readonly<Record<string, string>>, ctx: Context) => Promise<CompletionOutcome>;

interface Labelled {
  /** `Class#method`, used in start-up errors and logs. */
  readonly label: string;
  /** The caching hint the decorator gave, if any (stateless era). */
  readonly cache?: CacheHint;
  /** The provider class that serves it, and the method (what a guard sees as `getClass()` and `getHandler()`). */
  readonly owner: Constructor;
  readonly member: string;
  /** `@UseGuards` and `@UseInterceptors` of the class, then of the method, as written (checked). */
  readonly pipeline: PipelineMembersRecord;
  /** The OAuth scopes a call needs: `@RequireScopes` of the class and the method, then the options' `scopes`, each once. */
  readonly scopes: readonly string[];
}

export interface ToolDefinition extends Labelled {
  readonly kind: 'tool';
  readonly name: string;
  readonly descriptor: WireTool;
  /** The DTO the arguments are validated into; absent when the handler takes a plain object. */
  readonly inputClass?: Constructor;
  /** The hand-written `inputSchema`, compiled: the arguments must conform, and reach the handler as sent. */
  readonly inputCheck?: SchemaCheck;
  /** The `output` DTO, compiled: structured content must conform before it is sent. */
  readonly outputCheck?: OutputCheck;
  /** Client capabilities checked before the handler runs. */
  readonly requires: readonly string[];
  /** Whether a call may run as a task (`ToolOptions.task`). */
  readonly taskSupport: 'forbidden' | 'optional' | 'required';
  /** When its task starts (`ToolOptions.taskStart`). */
  readonly taskStart: 'at-once' | 'explicit';
  readonly invoke: Invoker;
}

export interface PromptDefinition extends Labelled {
  readonly kind: 'prompt';
  readonly name: string;
  readonly descriptor: WirePrompt;
  readonly inputClass?: Constructor;
  readonly completers: ReadonlyMap<string, Completer>;
  readonly invoke: Invoker;
}

/** Lists the concrete resources a template stands for. */
export type ResourceLister = (ctx: Context) => Promise<WireResource[]>;

export interface FixedResourceDefinition extends Labelled {
  readonly kind: 'resource';
  readonly uri: string;
  readonly descriptor: WireResource;
  readonly mimeType?: string;
  readonly invoke: Invoker;
}

export interface TemplateResourceDefinition extends Labelled {
  readonly kind: 'template';
  readonly uriTemplate: UriTemplate;
  readonly descriptor: WireResourceTemplate;
  readonly mimeType?: string;
  /** The DTO template variables are validated into; absent for a plain object. */
  readonly paramsClass?: Constructor;
  readonly lister?: ResourceLister;
  readonly completers: ReadonlyMap<string, Completer>;
  readonly invoke: Invoker;
  /**
   * Whether a URI it matched names something `principal` may know (an extension's own items, such
   * as a skill hidden from the caller); absent: every URI it matches may be known. A URI it does not
   * know is unknown to that caller for every method, as a hidden item is.
   */
  readonly knows?: (uri: string, params: Readonly<Record<string, string | readonly string[]>>, principal: unknown) => boolean;
}

export type ResourceDefinition = FixedResourceDefinition | TemplateResourceDefinition;

export interface Definitions {
  readonly tools: ToolDefinition[];
  readonly prompts: PromptDefinition[];
  readonly resources: ResourceDefinition[];
}

