import { readFileSync } from 'node:fs';
import { BundleRefusal } from './bundle-refusal';

/** What every PNG file starts with (PNG specification, 5.2). */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The bytes of the icon at `path`, refused unless it is a PNG (by its signature, not its name):
 * `mcpb validate` and Claude Desktop accept a PNG icon only.
 */
export function pngIcon(path: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new BundleRefusal(`cannot read the icon ${path}: ${(error as Error).message}`);
  }
  if (bytes.length < SIGNATURE.length || !bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
    throw new BundleRefusal(`${path} is not a PNG file (MCPB icons are PNG; 512x512 is recommended)`);
  }
  return bytes;
}
