// The build's removal of `defaultMessage` (scripts/vite-strip-default-messages.ts), on code shaped as the
// TypeScript and JSX transforms leave it, parsed by the same parser the build uses (rolldown's, through Vite).
import MagicString from 'magic-string';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { defaultMessageRanges } from '../../scripts/vite-strip-default-messages';

function strip(code: string): string {
  const text = new MagicString(code);
  for (const [start, end] of defaultMessageRanges(parseAst(code) as unknown as Parameters<typeof defaultMessageRanges>[0])) text.remove(start, end);
  return text.toString();
}

describe('stripping default messages', () => {
  it('drops each constant default with its comma, wherever it stands among the properties', () => {
    const code = [
      'jsx(FormattedMessage, { id: "a.title", defaultMessage: "Title" });',
      'intl.formatMessage({ defaultMessage: `Hello {name}`, id: "a.hello" }, { name });',
      'const M = { only: { defaultMessage: "x" }, last: { id: "a.last", description: "d", defaultMessage: "Last" } };',
    ].join('\n');
    expect(strip(code)).toBe(
      [
        'jsx(FormattedMessage, { id: "a.title" });',
        'intl.formatMessage({ id: "a.hello" }, { name });',
        'const M = { only: {  }, last: { id: "a.last", description: "d" } };',
      ].join('\n'),
    );
  });

  it('leaves alone what is not a constant default message', () => {
    const code = [
      'f({ id: "a", defaultMessage: pick() });',
      'f({ id: "b", defaultMessage: `Hi ${name}` });',
      'f({ [key]: "computed", "defaultMessage:": "a key that only looks like it" });',
      'const text = "defaultMessage: kept inside a string";',
    ].join('\n');
    expect(strip(code)).toBe(code);
  });
});
