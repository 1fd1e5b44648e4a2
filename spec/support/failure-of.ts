import type { McpError } from '@modelcontextprotocol/sdk/types.js';

/** The error a client request rejected with; fails the spec when it resolved instead. */
export async function failureOf(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    return error as McpError;
  }
  throw new Error('expected the request to fail');
}
