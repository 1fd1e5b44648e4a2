import { METADATA_KEYS } from '../metadata/metadata-keys';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { ResourceOptions } from '../metadata/resource-options';

export type { CompletionSource, ResourceOptions, ResourceRecord } from '../metadata/resource-options';

/**
 * Exposes a method as a resource: a fixed URI (`resources/list`) or an RFC 6570 template
 * (`resources/templates/list`, matched on `resources/read`). The handler receives the template
 * variables as its first parameter (a plain object, or a DTO class that validates them).
 *
 * @example
 * @Resource('weather://stations/{id}', { mimeType: 'application/json', description: 'A station', list: 'stations' })
 * station({ id }: { id: string }) { return { id, name: `Station ${id}` }; }
 */
export function Resource(uri: string, options: ResourceOptions = {}): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.resources, '@Resource', { ...options, uri });
}
