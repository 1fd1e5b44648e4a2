import { ProtocolError } from '../core/errors';
import type { TemplateParams } from '../uri-template/uri-template';

/** C0 controls (NUL, newline, escape ...), DEL and the C1 controls. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Refuses a URI whose template values decode to a control character (`%00`, `%0A` ...). RFC 6570
 * decodes them faithfully, but no name a handler looks up contains one, and a NUL or a newline in
 * a value is a trap for a handler that passes it on (a file name, a log line, a header). Invalid
 * params, naming the variable and the character, before the handler runs.
 */
export function refuseControlCharacters(uri: string, params: TemplateParams): void {
  for (const [name, value] of Object.entries(params)) {
    for (const part of typeof value === 'string' ? [value] : value) {
      const found = CONTROL_CHARACTER.exec(part);
      if (found) {
        const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        throw ProtocolError.invalidParams(`The value of {${name}} in ${JSON.stringify(uri)} contains a control character (${code}); this server refuses them (allowTemplateControlChars)`, { variable: name });
      }
    }
  }
}
