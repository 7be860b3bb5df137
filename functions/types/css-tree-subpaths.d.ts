// css-tree's types describe its root only; these subpaths export the same functions without
// the root's syntax data (about 50 KB more in a bundle), so the types are the root's.
declare module 'css-tree/tokenizer' {
  export { tokenize, tokenTypes } from 'css-tree';
}
declare module 'css-tree/utils' {
  export { ident, string, url } from 'css-tree';
}
