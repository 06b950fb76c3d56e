/**
 * Text made safe inside markup (the SVG charts the app saves), by the rule core's `markup::escape`
 * writes the evidence report and the GEXF network with: both run the case table
 * crates/core/tests/fixtures/markup-escape-cases.json.
 */

const REFERENCES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/**
 * Text safe in element content and in a quoted attribute, in HTML and in XML 1.0: `& < > " '`
 * escaped; tab, line feed and carriage return as character references (an attribute keeps them);
 * the other control characters, U+FFFE and U+FFFF, which XML 1.0 cannot hold, dropped.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"'\u0000-\u001f\ufffe\uffff]/g, (c) => REFERENCES[c] ?? '');
}
