import { HtmlDocument } from '../host-pages';
import { renderHtmlPage } from '../html-page';
import { type ProblemLink, ProblemContent, STYLE } from './layout';
import type { ModulePaths } from './module-paths';

export interface Problem {
  readonly title: string;
  readonly message: string;
  readonly links: readonly ProblemLink[];
}

/**
 * A module failure as a page of its own: the module's navigation, without the user or the
 * cart count (the error responder that renders it has no session to read them from).
 */
export const problemPage = (
  { title, message, links }: Problem,
  paths: ModulePaths,
  frameAncestors: readonly string[],
): string =>
  renderHtmlPage(
    <HtmlDocument title={title} styles={[STYLE]} bridge={{ frameAncestors, page: 'problem' }}>
      <header class="top">
        <div class="bar">
          <div class="brand">
            <span>Supplies</span>
          </div>
          <nav aria-label="Module">
            <ul class="nav">
              <li>
                <a href={paths.home}>Catalog</a>
              </li>
              <li>
                <a href={paths.orders}>Orders</a>
              </li>
              <li>
                <a href={paths.cart}>Cart</a>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <main id="content">
        <ProblemContent title={title} message={message} links={links} />
      </main>
    </HtmlDocument>,
  );
