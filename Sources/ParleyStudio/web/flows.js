// Flows: the list, and one flow's versions, live releases per channel, release/rollback
// (with a confirmation) and its history (who did what, when).
import { api } from './api.js';
import { append, fill, go, h, status, when } from './dom.js';

/** A flow's title for people: a localized title arrives as the JSON text of its object; show its first language. */
function titleText(title) {
  if (typeof title !== 'string' || !title.startsWith('{')) return title;
  try {
    const first = Object.values(JSON.parse(title))[0];
    return typeof first === 'string' ? first : title;
  } catch {
    return title;
  }
}

const channelsOf = (releases) => Object.entries(releases || {}).sort(([a], [b]) => a.localeCompare(b));

/** `/studio`: every flow with its latest version and what is live where. */
export async function flowsPage(main) {
  document.title = 'Flows · Parley Studio';
  const flows = [];
  let next = null;
  do {
    const page = (await api('GET', `/v1/flows?limit=200${next ? `&after=${encodeURIComponent(next)}` : ''}`)).data;
    flows.push(...page.items);
    next = page.next;
  } while (next && flows.length < 2000);
  const rows = flows.map((flow) => h('tr', {},
    h('th', { scope: 'row' }, h('a', { href: `/studio/flows/${encodeURIComponent(flow.id)}` }, flow.id)),
    h('td', {}, titleText(flow.title) || '—'),
    h('td', { class: 'num' }, flow.latestVersion),
    h('td', {}, channelsOf(flow.releases).map(([channel, version]) => h('span', { class: 'chip' }, `${channel}: v${version}`)))));
  fill(main,
    h('h1', {}, 'Flows'),
    flows.length === 0
      ? status('No flows yet. Post one with POST /v1/flows or publish a bundle.')
      : h('table', { class: 'data' },
        h('caption', {}, `${flows.length} flow${flows.length === 1 ? '' : 's'}`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Flow'), h('th', { scope: 'col' }, 'Title'),
          h('th', { scope: 'col' }, 'Latest version'), h('th', { scope: 'col' }, 'Live'))),
        h('tbody', {}, rows)),
    newFlowForm());
}

/** Starts the editor on a flow id that has no stored version yet. */
function newFlowForm() {
  const id = h('input', { id: 'new-flow', name: 'flow', required: true, pattern: '[A-Za-z0-9._-]{1,128}', 'aria-describedby': 'new-flow-help' });
  return h('form', { class: 'new-flow', onsubmit: (event) => {
    event.preventDefault();
    if (id.checkValidity()) go(`/studio/flows/${encodeURIComponent(id.value.trim())}/editor`);
  } },
  h('h2', {}, 'Start a new flow'),
  h('div', { class: 'field inline' }, h('label', { for: 'new-flow' }, 'Flow id'), id, h('button', { type: 'submit' }, 'Open the editor'),
    h('span', { id: 'new-flow-help', class: 'help' }, 'Letters, digits, “.”, “_” and “-”. Nothing is stored until you save.')));
}

/** Asks before a release goes out; resolves true when confirmed. */
function confirmRelease(text) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' },
      h('h2', { id: 'confirm-title' }, 'Confirm release'),
      h('p', {}, text));
    const finish = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    dialog.append(h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => finish(false) }, 'Cancel'),
      h('button', { type: 'button', class: 'primary', id: 'confirm-release', onclick: () => finish(true) }, 'Release')));
    dialog.addEventListener('cancel', () => resolve(false));
    (document.getElementById('main') || document.body).append(dialog);
    dialog.showModal();
  });
}

/** `/studio/flows/{id}`: versions, live releases, release and rollback, history. */
export async function flowPage(main, flow, notice) {
  const path = `/v1/flows/${encodeURIComponent(flow)}`;
  const [summary, versions, releases] = await Promise.all([
    api('GET', path), api('GET', `${path}/versions?limit=200`), api('GET', `${path}/releases`),
  ]).then((answers) => answers.map((answer) => answer.data));
  document.title = `${flow} · Parley Studio`;
  main.replaceChildren();
  const live = channelsOf(summary.releases);
  const channel = h('input', { id: 'channel', name: 'channel', value: live[0] ? live[0][0] : 'production', required: true });
  const liveOn = () => summary.releases[channel.value.trim()];

  const release = async (version) => {
    const target = channel.value.trim();
    if (!target) return channel.focus();
    const current = summary.releases[target];
    const verb = current && version < current ? 'Roll back' : 'Release';
    const text = `${verb} “${flow}” on channel “${target}” to version ${version}`
      + `${current ? ` (live now: version ${current})` : ''}? Clients get it within the screen cache time.`;
    if (!(await confirmRelease(text))) return;
    try {
      await api('POST', `${path}/releases`, { version, channel: target });
      await flowPage(main, flow, status(`${verb === 'Release' ? 'Released' : 'Rolled back to'} version ${version} on ${target}.`, 'ok'));
    } catch (error) {
      await flowPage(main, flow, status(`The release was refused: ${error.message}`, 'error'));
    }
  };

  const versionRows = versions.items.map((version) => {
    const onChannel = liveOn();
    const label = onChannel === version.version ? 'Live' : onChannel && version.version < onChannel ? 'Roll back to' : 'Release';
    return h('tr', {},
      h('th', { scope: 'row', class: 'num' }, `v${version.version}`),
      h('td', {}, version.author), h('td', {}, when(version.createdAt)),
      h('td', {}, h('code', { title: version.contentHash }, version.contentHash.slice(0, 12))),
      h('td', {}, label === 'Live'
        ? h('span', { class: 'chip live' }, 'live')
        : h('button', { type: 'button', 'data-version': version.version, onclick: () => release(version.version) },
          `${label} v${version.version}`)));
  });
  const history = releases.items.map((entry) => h('li', {},
    h('strong', {}, entry.releasedBy), ` released v${entry.version} on ${entry.channel}`,
    entry.percent < 100 ? ` to ${entry.percent}%` : '', entry.halted ? ' (halted)' : '',
    ' — ', h('time', { datetime: entry.releasedAt }, when(entry.releasedAt))));

  append(main, [
    h('h1', {}, summary.title ? `${titleText(summary.title)} ` : '', h('span', { class: 'muted' }, `(${flow})`)),
    notice || null,
    h('section', { 'aria-labelledby': 'live-title' },
      h('h2', { id: 'live-title' }, 'Live releases'),
      live.length ? h('ul', { class: 'chips', id: 'live' }, live.map(([name, version]) => h('li', { class: 'chip live' }, `${name}: v${version}`)))
        : h('p', {}, 'Not released on any channel.')),
    h('section', { 'aria-labelledby': 'versions-title' },
      h('h2', { id: 'versions-title' }, 'Versions'),
      h('div', { class: 'field inline' }, h('label', { for: 'channel' }, 'Channel'), channel,
        h('span', { class: 'help' }, 'Release and roll back act on this channel.')),
      h('table', { class: 'data', id: 'versions' },
        h('thead', {}, h('tr', {}, ['Version', 'Author', 'Created', 'Content hash', 'Action'].map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, versionRows))),
    h('section', { 'aria-labelledby': 'history-title' },
      h('h2', { id: 'history-title' }, 'Release history'),
      history.length ? h('ol', { class: 'history', id: 'history' }, history) : h('p', {}, 'No releases yet.'))]);
}
