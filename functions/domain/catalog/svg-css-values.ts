/**
 * Whether a CSS value in an SVG picture loads or runs anything: a `style` attribute's
 * declarations or a presentation attribute (`fill`, `clip-path`, `mask`, …), which browsers
 * read as CSS. It is read as a browser reads it, by css-tree's tokenizer (CSS Syntax Level
 * 3's) with escapes decoded, never by a pattern over the text: `\75 rl(…)`, `u\rl(…)` and
 * `URL(…)` are all `url(…)` to a browser (docs/decisions.md, "SVG pictures: parsed,
 * allow-listed").
 */
import { tokenize, tokenTypes } from 'css-tree/tokenizer';
import { ident, string, url } from 'css-tree/utils';

/** Functions that fetch an image or run something: a product picture draws with none of them. `url()` is checked apart. */
const LOADING_FUNCTIONS = new Set([
  ...['src', 'image', 'image-set', '-webkit-image-set', 'cross-fade', '-webkit-cross-fade'],
  ...['element', '-moz-element', 'expression', 'attr', 'paint'],
]);
/** Properties that bind behaviour to the page (old Internet Explorer and Firefox). */
const ACTIVE_PROPERTIES = new Set(['behavior', '-moz-binding']);

interface Token {
  readonly type: number;
  readonly text: string;
}

/** The value's tokens, comments and white space left out (they separate tokens and mean nothing else here). */
function significantTokens(value: string): Token[] {
  const tokens: Token[] = [];
  tokenize(value, (type, start, end) => {
    if (type !== tokenTypes.WhiteSpace && type !== tokenTypes.Comment)
      tokens.push({ type, text: value.slice(start, end) });
  });
  return tokens;
}

const isFragment = (reference: string): boolean => reference.startsWith('#');

/**
 * Whether `url(` at `index` (a function token: quoted, or its name escaped) names a fragment
 * of the picture: its one argument is a string or a hash starting with `#`, then `)`.
 */
function namesFragment(tokens: readonly Token[], index: number): boolean {
  const argument = tokens[index + 1];
  const close = tokens[index + 2];
  if (!argument || (close && close.type !== tokenTypes.RightParenthesis)) return false;
  if (argument.type === tokenTypes.Hash) return true;
  return argument.type === tokenTypes.String && isFragment(string.decode(argument.text));
}

/** What in the value loads or runs something, or undefined when it only draws. */
export function cssValueProblem(value: string): string | undefined {
  const tokens = significantTokens(value);
  for (const [index, token] of tokens.entries()) {
    switch (token.type) {
      case tokenTypes.Url:
        if (!isFragment(url.decode(token.text))) return 'a url() outside the picture';
        break;
      case tokenTypes.BadUrl:
        return 'a url() that is not well-formed';
      case tokenTypes.AtKeyword:
        return `an at-rule (${token.text})`;
      case tokenTypes.Function: {
        const name = ident.decode(token.text.slice(0, -1)).toLowerCase();
        if (name === 'url' && !namesFragment(tokens, index)) return 'a url() outside the picture';
        if (LOADING_FUNCTIONS.has(name)) return `a ${name}() that loads or runs something`;
        break;
      }
      case tokenTypes.Ident:
        if (ACTIVE_PROPERTIES.has(ident.decode(token.text).toLowerCase()))
          return `a style that binds behaviour (${token.text})`;
        break;
    }
  }
  return undefined;
}
