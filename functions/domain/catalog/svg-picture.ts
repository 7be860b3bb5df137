/**
 * Whether an SVG picture only draws (docs/decisions.md, "SVG pictures: parsed, allow-listed").
 *
 * The text is parsed as XML by @xmldom/xmldom (strict: any warning stops it), so namespaces
 * and entities are resolved as a browser resolves them, not guessed by a pattern: an
 * XHTML-namespaced `<h:script>`, a prefixed `<s:foreignObject>` or `&#106;avascript:` is
 * seen for what it is. The document is then walked against an allow-list: SVG's drawing
 * elements in the SVG namespace, their presentation attributes, references only to
 * fragments of the picture itself (every value read as CSS by `cssValueProblem`, as a
 * browser reads presentation attributes and `style`). No DOCTYPE (so no entity and no
 * external DTD), no processing instruction, no style sheet, no script, no event attribute,
 * no link. The walk keeps its own stack and stops past `MAX_SVG_DEPTH`, so a picture
 * nested 20,000 deep is refused with a reason instead of overflowing the call stack.
 */
import type { Element, Node } from '@xmldom/xmldom';
import { cssValueProblem } from './svg-css-values';

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** What a product picture draws with: shapes, text, grouping, paint servers, clipping and a few filters. No `a`, `image`, `foreignObject`, `script`, `style`, `animate*` or `set`. */
const DRAWING_ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'filter',
  'feGaussianBlur',
  'feOffset',
  'feFlood',
  'feComposite',
  'feBlend',
  'feMerge',
  'feMergeNode',
  'feColorMatrix',
  'feDropShadow',
]);

/** Geometry and presentation: nothing here runs, loads or navigates (`href` is checked on its own below). */
const DRAWING_ATTRIBUTES = new Set([
  ...['id', 'class', 'version', 'baseProfile', 'viewBox', 'preserveAspectRatio', 'width', 'height', 'x', 'y'],
  ...['x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'd', 'points', 'pathLength', 'transform'],
  ...['fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-linecap'],
  ...['stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'opacity', 'color'],
  ...['clip-path', 'clip-rule', 'mask', 'filter', 'display', 'visibility', 'vector-effect', 'style'],
  ...['font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing'],
  ...['dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'offset', 'stop-color', 'stop-opacity'],
  ...['gradientUnits', 'gradientTransform', 'spreadMethod', 'patternUnits', 'patternContentUnits'],
  ...['patternTransform', 'clipPathUnits', 'maskUnits', 'maskContentUnits', 'filterUnits', 'primitiveUnits'],
  ...['in', 'in2', 'result', 'stdDeviation', 'mode', 'operator', 'k1', 'k2', 'k3', 'k4', 'values', 'type'],
  ...['flood-color', 'flood-opacity', 'href'],
]);

/**
 * How deep a picture's elements may nest. Drawing tools nest groups a dozen deep; 256 is
 * libxml2's own default limit, which browsers' XML parsers share or exceed.
 */
export const MAX_SVG_DEPTH = 256;

export type SvgCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly tooDeep?: true };

const refused = (reason: string): SvgCheck => ({ ok: false, reason });

/**
 * Parses the text as XML and walks it against the allow-list; the first thing outside it is
 * the reason. It never throws: what it cannot check is refused, so neither the import nor
 * the picture route fails on a picture.
 */
export async function checkSvgPicture(text: string): Promise<SvgCheck> {
  try {
    return parseAndWalk(text, await xmlParser());
  } catch (error) {
    return refused(`cannot be checked (${(error as Error).message.split('\n')[0]})`);
  }
}

type XmlDom = typeof import('@xmldom/xmldom');
let xmldom: Promise<XmlDom> | undefined;
/**
 * The XML parser (about 96 KB) is loaded on the first picture checked, not at start: the embed host ships it beside
 * its handler (ON_DEMAND_PACKAGES), so the module's pages never read it. That copy is a bundle of a CommonJS package,
 * whose exports are its default export.
 */
const xmlParser = (): Promise<XmlDom['DOMParser']> =>
  (xmldom ??= import('@xmldom/xmldom').then(
    (module) => (module as XmlDom & { default?: XmlDom }).default ?? module,
  )).then((module) => module.DOMParser);

function parseAndWalk(text: string, DOMParser: XmlDom['DOMParser']): SvgCheck {
  // The parser drops a DOCTYPE's internal subset without a word; refuse it before it reads.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return refused('has a DOCTYPE or entity declaration');
  let root: Element | null;
  try {
    const document = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(text, 'image/svg+xml');
    if (document.doctype) return refused('has a DOCTYPE');
    for (let node = document.firstChild; node; node = node.nextSibling) {
      // The XML declaration is the one instruction the parser reports as a node; any other (a style sheet) is refused.
      if (node.nodeType === node.PROCESSING_INSTRUCTION_NODE && node.nodeName !== 'xml')
        return refused('has a processing instruction');
    }
    root = document.documentElement;
  } catch (error) {
    return refused(`is not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!root || root.namespaceURI !== SVG_NAMESPACE || root.localName !== 'svg')
    return refused('has no <svg> root in the SVG namespace');
  return walk(root);
}

/** Every element, depth first, on a stack of its own: no recursion, however deep the picture. */
function walk(root: Element): SvgCheck {
  const stack: { element: Element; depth: number }[] = [{ element: root, depth: 1 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { element, depth } = next;
    if (depth > MAX_SVG_DEPTH)
      return { ok: false, reason: `nests elements more than ${MAX_SVG_DEPTH} deep`, tooDeep: true };
    const problem = elementProblem(element);
    if (problem) return refused(problem);
    const children: Element[] = [];
    for (let child: Node | null = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === child.ELEMENT_NODE) children.push(child as Element);
      else if (child.nodeType === child.PROCESSING_INSTRUCTION_NODE) return refused('has a processing instruction');
    }
    // Pushed last first, so the first child is checked first, as a recursive walk would.
    for (const child of children.reverse()) stack.push({ element: child, depth: depth + 1 });
  }
  return { ok: true };
}

/** What is wrong with the element itself and its attributes (not its children), or undefined. */
function elementProblem(element: Element): string | undefined {
  const name = element.localName ?? element.nodeName;
  if (element.namespaceURI !== SVG_NAMESPACE) return `has an element outside SVG (<${element.nodeName}>)`;
  if (!DRAWING_ELEMENTS.has(name)) return `has a <${element.nodeName}> element`;
  for (let index = 0; index < element.attributes.length; index++) {
    const attribute = element.attributes.item(index)!;
    const problem = attributeProblem(attribute.namespaceURI, attribute.localName ?? attribute.name, attribute.value);
    if (problem) return `has ${problem} on <${element.nodeName}>`;
  }
  return undefined;
}

/** What is wrong with one attribute (its value as the parser decoded it), or undefined. */
function attributeProblem(namespace: string | null, name: string, value: string): string | undefined {
  if (namespace === XMLNS_NAMESPACE || (namespace === null && name === 'xmlns')) return undefined;
  if (namespace === XML_NAMESPACE && name === 'space') return undefined;
  if (/^on/i.test(name)) return `an event attribute (${name})`;
  const isHref = name === 'href' && (namespace === null || namespace === XLINK_NAMESPACE);
  if (namespace !== null && !isHref) return `an attribute outside SVG (${name})`;
  if (!DRAWING_ATTRIBUTES.has(name)) return `a ${name} attribute`;
  // Browsers skip whitespace and controls inside a URL's scheme: `java\tscript:` is `javascript:`.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (isHref && !compact.startsWith('#')) return `a reference outside the picture (${name})`;
  if (/(?:javascript|vbscript|data):/i.test(compact)) return `a script or data URL (${name})`;
  if (isHref) return undefined;
  // Presentation attributes and `style` are CSS to a browser, escapes and all; any other value holds no url() a browser loads, and refusing one there costs nothing.
  const css = cssValueProblem(value);
  return css ? `${css} (${name})` : undefined;
}
