// Vite plugin: removes the `defaultMessage` of every message descriptor from the build, the production step FormatJS
// recommends (its Babel and TypeScript transformers' `removeDefaultMessage` option). The build never shows a
// default message: every text comes from the catalogue chunks (scripts/vite-catalogue-areas.ts), and the tests keep
// every id the code names in both catalogues. The English defaults are there for the reader of the code and for the
// unit tests, which run on the sources. What it saves: some 80 KB of English text in the chunks, 4 to 8 KB gzipped
// on each route (docs/benchmarks.md, "JavaScript per route").
//
// It runs after the TypeScript and JSX transforms, so it sees plain JavaScript: `<FormattedMessage id defaultMessage>`
// is a props object there, like `intl.formatMessage({ id, defaultMessage })`. A property named `defaultMessage`
// whose value is a string (or a template without expressions) is cut with the comma that separates it; any other
// value is left alone. Done on the parser's syntax tree rather than by a pattern on the text, so a string that
// happens to hold "defaultMessage:" is not touched; rather than by Babel, so the build does not parse every file a
// second time with a second parser.
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Whether `node` is a `defaultMessage: '…'` property with a constant text. */
function isDefaultMessage(node: Node): boolean {
  if (node.type !== 'Property' || node.computed === true || node.kind !== 'init') return false;
  const key = node.key as Node;
  const name = key.type === 'Identifier' ? key.name : key.type === 'Literal' ? key.value : undefined;
  if (name !== 'defaultMessage') return false;
  const value = node.value as Node;
  if (value.type === 'Literal') return typeof value.value === 'string';
  return value.type === 'TemplateLiteral' && (value.expressions as unknown[]).length === 0;
}

/** The ranges to cut from `program`'s text: each constant `defaultMessage` with its separating comma. */
export function defaultMessageRanges(program: Node): Array<readonly [number, number]> {
  const ranges: Array<readonly [number, number]> = [];
  const visit = (node: Node) => {
    if (node.type === 'ObjectExpression') {
      const properties = (node.properties as Node[]) ?? [];
      properties.forEach((property, index) => {
        if (!isDefaultMessage(property)) return;
        const next = properties[index + 1];
        const previous = properties[index - 1];
        if (next !== undefined) ranges.push([property.start, next.start]);
        else if (previous !== undefined) ranges.push([previous.end, property.end]);
        else ranges.push([property.start, property.end]);
      });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) if (isNode(child)) visit(child);
      if (isNode(value)) visit(value);
    }
  };
  visit(program);
  // Two neighbours both cut: the first's range ends where the second's starts, so they never overlap.
  return ranges;
}

export function stripDefaultMessages(): Plugin {
  return {
    name: 'strip-default-messages',
    apply: 'build',
    enforce: 'post',
    transform: {
      filter: { id: /\/src\/.*\.[jt]sx?$/, code: 'defaultMessage' },
      handler(code) {
        const ranges = defaultMessageRanges(this.parse(code) as unknown as Node);
        if (ranges.length === 0) return null;
        const text = new MagicString(code);
        for (const [start, end] of ranges) text.remove(start, end);
        return { code: text.toString(), map: text.generateMap({ hires: 'boundary' }) };
      },
    },
  };
}
