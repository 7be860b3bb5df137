import { dispatcherFromEnvironment } from './webhook-dispatch-dependencies';

/** The slow path's dispatcher (docs/webhooks.md, "Fast and slow paths"): the fast one's parts, the transport's full deadline. */
export const webhookSlowDispatchFromEnvironment = dispatcherFromEnvironment('slow');
