/**
 * Every metadata key the framework owns (its records live in `record-store`, not in
 * reflect-metadata). No other module spells a key. Keys are strings under one prefix, so they
 * never collide with user metadata, and never hold `\u0000` (the record store's separator).
 */
export const METADATA_KEYS = Object.freeze({
  tools: 'phantom:tools',
  resources: 'phantom:resources',
  prompts: 'phantom:prompts',
  /** `@Skill`: a method that produces a skill of the Skills extension. */
  skills: 'phantom:skills',
  /** `@ToolUi`: the MCP Apps view of a tool (stacked on `@Tool`). */
  toolUi: 'phantom:tool-ui',
  elicit: 'phantom:elicit',
  fields: 'phantom:fields',
  misplaced: 'phantom:misplaced',
  /** `@UseGuards`: on a class (every target it serves) or on a method (that target). */
  guards: 'phantom:guards',
  /** `@UseInterceptors`: on a class or on a method. */
  interceptors: 'phantom:interceptors',
  /** `@RequireScopes`: on a class (every target it serves) or on a method (that target). */
  scopes: 'phantom:scopes',
} as const);

/** TypeScript's own keys, emitted by `emitDecoratorMetadata`. */
export const DESIGN_KEYS = Object.freeze({
  paramTypes: 'design:paramtypes',
  returnType: 'design:returntype',
  type: 'design:type',
} as const);

/** tsyringe's own key: the tokens `@inject(token)` records per constructor parameter index. */
export const TSYRINGE_KEYS = Object.freeze({
  injectionTokens: 'injectionTokens',
} as const);
