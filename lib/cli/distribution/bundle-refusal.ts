/**
 * `phantom-mcp bundle` will not write a bundle (or a manifest) from what it was given: the
 * package lacks what MCPB requires, a file is not what it should be, a dependency is missing.
 * The message says what, and what to do; the command prints it alone and exits 1.
 */
export class BundleRefusal extends Error {
  override readonly name = 'BundleRefusal';
}
