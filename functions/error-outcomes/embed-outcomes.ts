/** The embed host's refusals of a browser: a forged or oversized form (the module's pages), an unusable link or session (the host's). */
import { EmbedAccessDenied, FormNotUtf8, FormTooLarge, RequestForgeryRefused } from '../domain/errors';
import { type Entry, entry } from './outcome-kit';

export const EMBED_OUTCOMES: readonly Entry[] = [
  entry(RequestForgeryRefused, {
    module: (_, places) => ({
      status: 403,
      title: 'Request refused',
      message:
        'This action could not be confirmed as coming from this page, so nothing was changed. Reload the page and try again.',
      links: [{ href: places.home, label: 'Back to the catalog', primary: true }],
    }),
  }),
  entry(FormTooLarge, {
    module: (_, places) => ({
      status: 413,
      title: 'Form too large',
      message:
        'This form sent far more than the page ever sends, so nothing was changed. Reload the page and try again.',
      links: [{ href: places.home, label: 'Back to the catalog', primary: true }],
    }),
  }),
  entry(FormNotUtf8, {
    module: (_, places) => ({
      status: 400,
      title: 'Text not readable',
      message:
        'This form sent characters that are not valid text (not UTF-8), so nothing was saved. Retype the text and try again.',
      links: [{ href: places.home, label: 'Back to the catalog', primary: true }],
    }),
  }),
  // Any unusable link or session is the same 401 notice; a refused session cookie is also cleared, but never on a
  // cross-site request, which must not be able to sign the user out.
  entry(EmbedAccessDenied, {
    host: (error) =>
      error.refused === 'session'
        ? { status: 401, page: 'session-ended', clearSession: true }
        : { status: 401, page: 'link-unusable', clearSession: false },
  }),
];
