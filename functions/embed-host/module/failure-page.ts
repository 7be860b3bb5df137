import { moduleOutcome } from '../../error-outcomes';
import { html, type HttpResponse } from '../../http/responses';
import { modulePaths } from './module-paths';
import { problemPage } from './problem-page';

/**
 * What the module's user is told when an action fails for a reason of theirs or of the
 * data (functions/error-outcomes/). Undefined for failures that are not the module's:
 * the embed host's own pages answer those.
 */
const problemFor = (error: unknown, partnerId: string) => moduleOutcome(error, modulePaths(partnerId));

/** The module's failure as a page, or undefined when it is not a module failure. */
export function moduleFailureResponse(
  error: unknown,
  partnerId: string,
  frameAncestors: readonly string[] = [],
): HttpResponse | undefined {
  const problem = problemFor(error, partnerId);
  if (!problem) return undefined;
  return html(problem.status, problemPage(problem, modulePaths(partnerId), frameAncestors));
}
