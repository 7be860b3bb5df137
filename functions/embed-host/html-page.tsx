/**
 * How every HTML page is made: JSX rendered to a string by `preact-render-to-string`,
 * which escapes every text and attribute value, so a value from data can only ever be
 * text. The one way around it, `dangerouslySetInnerHTML`, is used for stylesheets only,
 * and only for `StaticCss`: text written in our source.
 */
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A page as the browser gets it; the doctype keeps it out of quirks mode. */
export const renderHtmlPage = (page: VNode): string => `<!doctype html>\n${renderToString(page)}\n`;

declare const staticCss: unique symbol;

/** CSS from our own source, the only text that goes into a page unescaped. */
export type StaticCss = string & { readonly [staticCss]: true };

/**
 * Marks a stylesheet written in the source as trusted. It takes no `${…}`: the tag's one
 * parameter makes TypeScript refuse a template with a substitution, so no value can
 * reach a `<style>` this way.
 */
export const css = (source: TemplateStringsArray): StaticCss => source.join('') as StaticCss;

/**
 * `<style>` is raw text to the browser: escaping would turn the sheets' quotes
 * (`"Segoe UI"`, `content:""`) into `&quot;` and break them, so they go in as they are.
 */
export const InlineStyle = ({ sheets }: { sheets: readonly StaticCss[] }): VNode => (
  <style dangerouslySetInnerHTML={{ __html: sheets.join('') }} />
);
