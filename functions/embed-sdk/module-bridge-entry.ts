/** The module bridge's script (`/embedded/assets/bridge-v1.js`): the real window behind `startModuleBridge`. */
import { startModuleBridge } from './module-bridge';

const root = document.documentElement;
startModuleBridge({
  parent: window.parent === window ? undefined : window.parent,
  selfOrigin: location.origin,
  attribute: (name) => root.getAttribute(name) ?? undefined,
  onMessage: (listener) =>
    window.addEventListener('message', (event) =>
      listener({ data: event.data, origin: event.origin, fromParent: event.source === window.parent }),
    ),
  observeHeight: (listener) => {
    // The root element's box is the content's height, not the viewport's, so the frame can shrink as well as grow.
    const measure = () => listener(root.getBoundingClientRect().height);
    new ResizeObserver(measure).observe(root);
    measure();
  },
});
