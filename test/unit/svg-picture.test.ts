/**
 * The SVG picture check as an operator's import sees it (`checkProductImage`'s message):
 * CSS escapes do not get a url() past it, in `style` or in a presentation attribute; a
 * drawing with fragments, fonts and colours still passes; a picture nested 20,000 deep is
 * refused with a reason, never a stack overflow.
 */
import { describe, expect, it } from 'vitest';
import { checkProductImage } from '../../functions/domain/catalog/product-image-check';
import { MAX_SVG_DEPTH } from '../../functions/domain/catalog/svg-picture';

const svgWith = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4">${inner}</svg>`;
const messageOf = async (svg: string) => {
  const check = await checkProductImage(Buffer.from(svg));
  return check.ok ? 'accepted' : check.message;
};

describe('an SVG picture whose CSS loads something, however it is written', () => {
  const LOADING: Readonly<Record<string, string>> = {
    'an escaped url() in a style': '<rect width="4" height="4" style="fill:\\75 rl(https://evil.test/track)"/>',
    'an escaped url() in clip-path': '<rect width="4" height="4" clip-path="\\75 rl(https://evil.test/clip)"/>',
    'an escaped url() in fill': '<rect width="4" height="4" fill="\\000075rl(https://evil.test/track)"/>',
    'a url() with an escaped letter': '<rect width="4" height="4" mask="u\\rl(https://evil.test/m)"/>',
    'an escaped url() quoting its address': `<rect width="4" height="4" style="fill:\\55 RL('https://evil.test/x')"/>`,
    'an escaped url() after a comment':
      '<rect width="4" height="4" style="stroke:red;/* x */fill:\\75 rl(//evil.test)"/>',
    'an upper-case URL()': '<rect width="4" height="4" filter="URL(https://evil.test/f)"/>',
    'a url() whose escaped address is not a fragment': '<rect width="4" height="4" fill="url(\\68ttps://evil.test/)"/>',
    'an image-set()': '<rect width="4" height="4" style="fill:image-set(&quot;https://evil.test/x.png&quot; 1x)"/>',
    'an escaped src()': '<rect width="4" height="4" style="fill:\\73rc(&quot;https://evil.test/x&quot;)"/>',
    'an @import in a style':
      '<rect width="4" height="4" style="@import &quot;https://evil.test/x.css&quot;;fill:red"/>',
    'an escaped -moz-binding': '<rect width="4" height="4" style="-\\6d oz-binding:none"/>',
  };
  for (const [label, inner] of Object.entries(LOADING))
    it(`refuses ${label}`, async () => {
      expect(await messageOf(svgWith(inner))).toMatch(/^is an SVG that does more than draw: it has an? .* on <rect>$/);
    });

  it('names what it found and where', async () => {
    expect(await messageOf(svgWith(LOADING['an escaped url() in clip-path'] as string))).toBe(
      'is an SVG that does more than draw: it has a url() outside the picture (clip-path) on <rect>',
    );
  });

  it('still accepts fragments, however written, and the CSS a drawing tool writes', async () => {
    const drawing = svgWith(
      [
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><clipPath id="c"><rect width="2" height="2"/></clipPath></defs>',
        '<rect width="4" height="4" fill="url(#g)" clip-path="url( \'#c\' )" style="fill:url(&quot;#g&quot;);stroke:rgb(0, 0, 0);stroke-width:0.5;font-family:\'DejaVu Sans\', sans-serif"/>',
        '<rect width="4" height="4" fill="\\75 rl(#g)" style="fill:\\75 rl(\'#g\')"/>',
        '<path d="M0 0L4 4z" transform="rotate(45, 2, 2)" stroke-dasharray="1 0.5"/>',
      ].join(''),
    );
    expect(await messageOf(drawing)).toBe('accepted');
  });
});

describe('an SVG picture nested deeper than any drawing', () => {
  it(`refuses 20,000 levels with a reason instead of overflowing the stack, and accepts ${MAX_SVG_DEPTH}`, async () => {
    // `levels` elements deep: the <svg>, its groups, the <rect>.
    const nested = (levels: number) =>
      svgWith(`${'<g>'.repeat(levels - 2)}<rect width="4" height="4"/>${'</g>'.repeat(levels - 2)}`);
    expect(await messageOf(nested(20_000))).toBe(
      `is an SVG too deep to accept: it nests elements more than ${MAX_SVG_DEPTH} deep`,
    );
    expect(await messageOf(nested(MAX_SVG_DEPTH))).toBe('accepted');
    expect(await messageOf(nested(MAX_SVG_DEPTH + 1))).toMatch(/too deep/);
  });
});
