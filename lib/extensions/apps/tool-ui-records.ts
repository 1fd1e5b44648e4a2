import { METADATA_KEYS } from '../../metadata/metadata-keys';
import { readMembers, type Constructor } from '../../metadata/metadata-store';
import type { ToolUiOptions } from '../../metadata/tool-ui-options';

/**
 * The `@ToolUi` options of a class's methods, by method name (its own and inherited, the nearest
 * winning), read once per class: decorators run when a class is defined, so the records never change.
 */
export class ToolUiRecords {
  private readonly byOwner = new WeakMap<Constructor, ReadonlyMap<string, ToolUiOptions>>();

  of(owner: Constructor): ReadonlyMap<string, ToolUiOptions> {
    let records = this.byOwner.get(owner);
    if (records === undefined) {
      records = new Map(readMembers<ToolUiOptions>(METADATA_KEYS.toolUi, owner).map((record) => [record.propertyKey, record.options]));
      this.byOwner.set(owner, records);
    }
    return records;
  }

  /** The options `@ToolUi` recorded for `owner`'s method `member`, if any. */
  get(owner: Constructor, member: string): ToolUiOptions | undefined {
    return this.of(owner).get(member);
  }
}
