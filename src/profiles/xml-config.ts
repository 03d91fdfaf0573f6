// Reader for the XML custom configuration: exactly the flat shape
//   <configuration><setting name="layerHeight">0.15</setting>…</configuration>
// with an optional XML declaration, comments, the five predefined entities, character references and
// CDATA. Anything else — DOCTYPE, entity declarations, nested elements — is refused, so no entity
// expansion or external fetch can happen. Values are checked against the settings schema.
import { Buffer } from 'node:buffer';
import type { SliceSettings } from '../engine/settings.js';
import { ProfileError, SettingsError } from './errors.js';
import { settingSpec } from './settings-schema.js';
import { suggestSettingKeys, validateValue } from './validate.js';

/** Largest XML configuration accepted, bytes. */
export const MAX_XML_BYTES = 1024 * 1024;

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
const SPACE = /[ \t\r\n]*/y;

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string, at = this.pos): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new ProfileError('BAD_XML', `XML configuration, line ${line} column ${column}: ${message}`);
  }
  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }
  skipSpace(): void {
    SPACE.lastIndex = this.pos;
    SPACE.exec(this.text);
    this.pos = SPACE.lastIndex;
  }
  expect(s: string): void {
    if (!this.startsWith(s)) this.fail(`expected "${s}"`);
    this.pos += s.length;
  }
  name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.text);
    if (!m) this.fail('expected a name');
    this.pos = NAME.lastIndex;
    return m[0];
  }
  /** Skips whitespace, comments and (only where allowed) the XML declaration. */
  skipMisc(allowDeclaration: boolean): void {
    for (;;) {
      this.skipSpace();
      if (this.startsWith('<!--')) {
        const end = this.text.indexOf('-->', this.pos + 4);
        if (end < 0) this.fail('unterminated comment');
        this.pos = end + 3;
      } else if (allowDeclaration && this.startsWith('<?xml')) {
        const end = this.text.indexOf('?>', this.pos);
        if (end < 0) this.fail('unterminated XML declaration');
        this.pos = end + 2;
        allowDeclaration = false;
      } else if (this.startsWith('<!')) {
        this.fail('DOCTYPE and entity declarations are not accepted');
      } else if (this.startsWith('<?')) {
        this.fail('processing instructions are not accepted');
      } else {
        return;
      }
    }
  }
}

/** XML 1.0's Char: a reference to anything else (a lone surrogate, a control character) is an error. */
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** Decodes entity and character references in text or an attribute value. */
function decodeText(c: Cursor, raw: string, at: number): string {
  return raw.replace(/&([^;&\s]*);?/g, (whole, ref: string, offset: number) => {
    if (!whole.endsWith(';')) c.fail('"&" must start an entity reference like &amp;', at + offset);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const valid = /^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) && isXmlChar(code);
      if (!valid) c.fail(`bad character reference &${ref};`, at + offset);
      return String.fromCodePoint(code);
    }
    // own keys only: `&constructor;` must not find Object.prototype's
    const value = Object.hasOwn(PREDEFINED, ref) ? PREDEFINED[ref] : undefined;
    if (value === undefined) c.fail(`unknown entity &${ref}; (only &lt; &gt; &amp; &quot; &apos;)`, at + offset);
    return value;
  });
}

function readAttributes(c: Cursor): Map<string, string> {
  const attrs = new Map<string, string>();
  for (;;) {
    const hadSpace = /[ \t\r\n]/.test(c.text[c.pos] ?? '');
    c.skipSpace();
    if (c.startsWith('>') || c.startsWith('/>')) return attrs;
    if (!hadSpace) c.fail('expected a space before the attribute');
    const name = c.name();
    c.skipSpace();
    c.expect('=');
    c.skipSpace();
    const quote = c.text[c.pos];
    if (quote !== '"' && quote !== "'") c.fail('attribute values must be quoted');
    const end = c.text.indexOf(quote, c.pos + 1);
    if (end < 0) c.fail('unterminated attribute value');
    const raw = c.text.slice(c.pos + 1, end);
    if (raw.includes('<')) c.fail('"<" in an attribute value');
    if (attrs.has(name)) c.fail(`duplicate attribute "${name}"`);
    attrs.set(name, decodeText(c, raw, c.pos + 1));
    c.pos = end + 1;
  }
}

/** The text content of a <setting> up to its end tag: character data, references and CDATA. */
function readSettingText(c: Cursor): string {
  let out = '';
  for (;;) {
    const lt = c.text.indexOf('<', c.pos);
    if (lt < 0) c.fail('missing </setting>');
    out += decodeText(c, c.text.slice(c.pos, lt), c.pos);
    c.pos = lt;
    if (c.startsWith('<![CDATA[')) {
      const end = c.text.indexOf(']]>', c.pos);
      if (end < 0) c.fail('unterminated CDATA section');
      out += c.text.slice(c.pos + 9, end);
      c.pos = end + 3;
    } else if (c.startsWith('<!--')) {
      c.skipMisc(false);
    } else if (c.startsWith('</')) {
      c.pos += 2;
      if (c.name() !== 'setting') c.fail('expected </setting>');
      c.skipSpace();
      c.expect('>');
      return out;
    } else {
      c.fail('a <setting> holds text only, no nested elements');
    }
  }
}

function toText(xml: string | Uint8Array): string {
  if (typeof xml === 'string') {
    if (xml.length > MAX_XML_BYTES || Buffer.byteLength(xml, 'utf8') > MAX_XML_BYTES) {
      throw new ProfileError('BAD_XML', `XML configuration is larger than ${MAX_XML_BYTES} bytes`);
    }
    return xml;
  }
  if (xml.byteLength > MAX_XML_BYTES) throw new ProfileError('BAD_XML', `XML configuration is larger than ${MAX_XML_BYTES} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(xml);
  } catch {
    throw new ProfileError('BAD_XML', 'XML configuration is not valid UTF-8');
  }
}

/**
 * Reads an XML custom configuration into validated settings. Throws ProfileError EMPTY_XML for an
 * empty (or whitespace-only) file and BAD_XML, naming the line or the setting, for anything else wrong.
 */
export function parseXmlConfiguration(xml: string | Uint8Array): { settings: Partial<SliceSettings>; warnings: string[] } {
  const text = toText(xml).replace(/^\uFEFF/, '');
  if (text.trim().length === 0) throw new ProfileError('EMPTY_XML', 'XML configuration is empty');
  const c: Cursor = new Cursor(text);
  c.skipMisc(true);
  if (c.pos >= text.length) throw new ProfileError('EMPTY_XML', 'XML configuration has no <configuration> element');
  c.expect('<');
  const root = c.name();
  if (root.toLowerCase() !== 'configuration') c.fail(`the root element must be <configuration>, not <${root}>`);
  readAttributes(c);
  const settings: Record<string, unknown> = {};
  let count = 0;
  if (c.startsWith('/>')) {
    c.pos += 2;
  } else {
    c.expect('>');
    for (;;) {
      c.skipMisc(false);
      if (c.startsWith('</')) {
        c.pos += 2;
        if (c.name() !== root) c.fail(`expected </${root}>`);
        c.skipSpace();
        c.expect('>');
        break;
      }
      if (!c.startsWith('<')) c.fail(c.pos >= text.length ? `missing </${root}>` : 'text outside a <setting>');
      const tagAt = c.pos;
      c.pos += 1;
      const tag = c.name();
      if (tag !== 'setting') c.fail(`unexpected element <${tag}>: only <setting name="…"> is allowed`, tagAt);
      const attrs = readAttributes(c);
      const key = attrs.get('name');
      if (key === undefined) c.fail('<setting> without a name attribute', tagAt);
      let value = '';
      if (c.startsWith('/>')) c.pos += 2;
      else {
        c.expect('>');
        value = readSettingText(c);
      }
      addSetting(settings, key, value);
      count++;
    }
  }
  c.skipMisc(false);
  if (c.pos < text.length) c.fail('content after </configuration>');
  const warnings = count === 0 ? ['XML configuration sets no settings: the printer defaults apply'] : [];
  return { settings: settings as Partial<SliceSettings>, warnings };
}

function addSetting(settings: Record<string, unknown>, key: string, value: string): void {
  if (!settingSpec(key)) {
    const suggestions = suggestSettingKeys(key);
    const hint = suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
    throw new ProfileError('BAD_XML', `XML configuration: unknown setting "${key}"${hint}`, suggestions, key);
  }
  if (Object.prototype.hasOwnProperty.call(settings, key)) {
    throw new ProfileError('BAD_XML', `XML configuration: setting "${key}" is given twice`, [], key);
  }
  try {
    settings[key] = validateValue(key, value, { fromText: true });
  } catch (e) {
    if (e instanceof SettingsError) throw new ProfileError('BAD_XML', `XML configuration: ${e.message}`, [], key);
    throw e;
  }
}
