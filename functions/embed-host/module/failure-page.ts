import { moduleOutcome } from '../../error-outcomes';
import { html, type JsonResponse } from '../../api/pipeline/responses';
import { document, escapeHtml, problemContent, STYLE } from './layout';
import { modulePaths } from './module-paths';

/**
 * What the module's user is told when an action fails for a reason of theirs or of the
 * data (functions/error-outcomes.ts). Undefined for failures that are not the module's:
 * the embed host's own pages answer those.
 */
const problemFor = (error: unknown, partnerId: string) => moduleOutcome(error, modulePaths(partnerId));

/** The module's failure as a page, or undefined when it is not a module failure. */
export function moduleFailureResponse(error: unknown, partnerId: string, frameAncestors: readonly string[] = []): JsonResponse | undefined {
  const problem = problemFor(error, partnerId);
  if (!problem) return undefined;
  const paths = modulePaths(partnerId);
  return html(
    problem.status,
    document(
      problem.title,
      STYLE,
      `<header class="top"><div class="bar"><div class="brand"><span>Supplies</span></div>
<nav aria-label="Module"><ul class="nav"><li><a href="${escapeHtml(paths.home)}">Catalog</a></li><li><a href="${escapeHtml(paths.orders)}">Orders</a></li><li><a href="${escapeHtml(paths.cart)}">Cart</a></li></ul></nav></div></header>
<main id="content">${problemContent(problem.title, problem.message, problem.links)}</main>`,
      { frameAncestors, page: 'problem' },
    ),
  );
}
