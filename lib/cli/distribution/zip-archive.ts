import { constants, crc32, deflateRawSync } from 'node:zlib';
import { BundleRefusal } from './bundle-refusal';

/** One file of a zip archive. */
export interface ZipEntry {
  /** Its path in the archive, with forward slashes and no leading one. */
  readonly path: string;
  /** Its unix permission bits (e.g. 0o755 for an executable), kept so that unzip restores them. */
  readonly mode: number;
  readonly data: Buffer;
}

/** The limits of a zip without the zip64 extension: what this writer refuses beyond. */
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

/**
 * Every entry's time: the DOS epoch (1980-01-01 00:00), so that the same files make the same
 * bytes (a reproducible archive, whose hash a registry entry can pin).
 */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** Version 2.0 (deflate), made on unix (3): the external attributes then hold the mode. */
const VERSION_NEEDED = 20;
const MADE_BY_UNIX = (3 << 8) | VERSION_NEEDED;
/** Bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
const STORED = 0;
const DEFLATED = 8;
const REGULAR_FILE = 0o100000;

/**
 * A zip archive (PKWARE APPNOTE 6.3: local headers, central directory, end record) of the
 * entries, in their order: each deflated at level 9, or stored when that is no smaller. Files
 * only: unzip makes the folders. Refuses what would need zip64 (65,535 entries or 4 GiB).
 */
export function zipArchive(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > MAX_ENTRIES) throw new BundleRefusal(`the bundle would hold ${entries.length} files; a zip without zip64 holds at most ${MAX_ENTRIES}`);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.path, 'utf8');
    const deflated = deflateRawSync(entry.data, { level: constants.Z_BEST_COMPRESSION });
    const method = deflated.length < entry.data.length ? DEFLATED : STORED;
    const body = method === DEFLATED ? deflated : entry.data;
    const sums = { crc: crc32(entry.data), packed: body.length, size: entry.data.length };
    if (offset + 30 + name.length + body.length > MAX_OFFSET) throw new BundleRefusal('the bundle would be larger than 4 GiB, which a zip without zip64 cannot hold');
    parts.push(localHeader(name, method, sums), name, body);
    central.push(centralHeader(name, method, sums, entry.mode, offset), name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  return Buffer.concat([...parts, directory, endRecord(entries.length, directory.length, offset)]);
}

interface Sums { readonly crc: number; readonly packed: number; readonly size: number }

function localHeader(name: Buffer, method: number, sums: Sums): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_NEEDED, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(method, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(sums.crc, 14);
  header.writeUInt32LE(sums.packed, 18);
  header.writeUInt32LE(sums.size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  return header;
}

function centralHeader(name: Buffer, method: number, sums: Sums, mode: number, offset: number): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY_UNIX, 4);
  header.writeUInt16LE(VERSION_NEEDED, 6);
  header.writeUInt16LE(UTF8_NAMES, 8);
  header.writeUInt16LE(method, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(sums.crc, 16);
  header.writeUInt32LE(sums.packed, 20);
  header.writeUInt32LE(sums.size, 24);
  header.writeUInt16LE(name.length, 28);
  // Extra field, comment, disk number and internal attributes: none, all zero.
  header.writeUInt32LE((((REGULAR_FILE | (mode & 0o7777)) << 16) >>> 0), 38);
  header.writeUInt32LE(offset, 42);
  return header;
}

function endRecord(count: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  record.writeUInt16LE(count, 8);
  record.writeUInt16LE(count, 10);
  record.writeUInt32LE(size, 12);
  record.writeUInt32LE(offset, 16);
  return record;
}
