/**
 * The embed SDK, served as an ES module at `{embed_host}/sdk/v1/embed.js`:
 *
 *   import { mount } from 'https://{embed_host}/sdk/v1/embed.js';
 *   const embed = await mount(container, { fetchEmbedUrl, onEvent });
 *
 * The embed host is the origin this module was loaded from, so a sandbox page talks to
 * the sandbox host and a production page to production, with nothing to configure.
 */
import { type EmbeddedModule, mountModule, type MountOptions } from './mount-module';

export type { EmbedEvent, EmbedEventType, LoadErrorReason } from './embed-events';
export type { EmbeddedModule, MountOptions };

export async function mount(container: HTMLElement, options: MountOptions): Promise<EmbeddedModule> {
  return mountModule(container, options, new URL(import.meta.url).origin);
}
