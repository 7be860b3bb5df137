/**
 * The demo partner page's one script, as a partner would write it: import the SDK from
 * the embed host, mount the module, get each link from its own backend, and list what
 * the module reports. Plain JavaScript, served from `/demo/assets/demo-host.js` (the
 * demo's CSP allows no inline script). `npm start` serves the demo and the embed host on
 * one origin, so the SDK's path is relative here; a partner's page uses the absolute
 * `https://{embed_host}/sdk/v1/embed.js`.
 */
export const DEMO_HOST_SCRIPT_PATH = '/demo/assets/demo-host.js';

export const DEMO_HOST_SCRIPT = `
const container = document.getElementById('supplies');
const log = document.getElementById('embed-events');
const empty = document.getElementById('embed-events-empty');

const show = (event) => {
  empty.hidden = true;
  const top = log.firstElementChild;
  // A resize follows every page: keep the latest one instead of a column of them.
  if (event.type === 'resize' && top && top.dataset.type === 'resize') top.remove();
  const item = document.createElement('li');
  item.dataset.testid = 'embed-event';
  item.dataset.type = event.type;
  const type = document.createElement('b');
  type.textContent = event.type;
  const data = document.createElement('code');
  data.textContent = JSON.stringify(event.data);
  const time = document.createElement('span');
  time.className = 'meta';
  time.textContent = new Date().toTimeString().slice(0, 8);
  item.append(type, ' ', data, ' ', time);
  log.prepend(item);
};

const { mount } = await import('/sdk/v1/embed.js');
await mount(container, {
  // The partner's backend does the handshake with its API key; the browser gets only the link.
  fetchEmbedUrl: async () => {
    const res = await fetch(container.dataset.sessionUrl, { method: 'POST' });
    if (!res.ok) throw new Error('the demo backend answered ' + res.status);
    return (await res.json()).iframe_embed_url;
  },
  onEvent: show,
});
`;
