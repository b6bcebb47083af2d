// The studio's entry point: sign-in, URL routing (every view has a shareable address), and
// the navigation between a flow's views.
import { ApiError, token } from './api.js';
import { fill, go, h, status } from './dom.js';
import { flowsPage, flowPage } from './flows.js';
import { editorPage } from './editor.js';
import { previewPage } from './preview.js';
import { tryPage } from './try.js';
import { graphPage } from './graph.js';
import { funnelPage } from './funnel.js';

const VIEWS = [
  ['', 'Overview', flowPage], ['editor', 'Editor', editorPage], ['preview', 'Preview', previewPage],
  ['try', 'Try it', tryPage], ['graph', 'Graph', graphPage], ['funnel', 'Funnel', funnelPage],
];

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const signOut = document.getElementById('signout');
let signInError = '';

/** Where the URL points: {flow, view}. */
function location() {
  const parts = window.location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'studio') return {};
  if (parts[1] === 'flows' && parts[2]) return { flow: parts[2], view: parts[3] || '' };
  return {};
}

function renderNav(flow, view) {
  nav.replaceChildren();
  if (!flow || !token.get()) return;
  const list = h('ul');
  for (const [name, label] of VIEWS) {
    const href = `/studio/flows/${encodeURIComponent(flow)}${name ? `/${name}` : ''}`;
    list.append(h('li', {}, h('a', { href, 'aria-current': name === view ? 'page' : null }, label)));
  }
  nav.append(h('span', { class: 'flow-name' }, flow), list);
}

function signInPage() {
  document.title = 'Sign in · Parley Studio';
  const input = h('input', {
    id: 'token', name: 'token', type: 'password', required: true,
    'aria-describedby': signInError ? 'signin-error' : 'token-help',
  });
  const form = h('form', { class: 'signin', onsubmit: async (event) => {
    event.preventDefault();
    token.set(input.value.trim());
    signInError = '';
    await route();
  } },
  h('h1', {}, 'Sign in to Parley Studio'),
  h('label', { for: 'token' }, 'API token'),
  input,
  h('p', { id: 'token-help', class: 'help' }, 'A token with the author scope (publish to release). It is kept only in this tab.'),
  signInError ? h('p', { id: 'signin-error', class: 'notice error', role: 'alert' }, signInError) : null,
  h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  fill(main, form);
  input.focus();
}

/** Shows the page the URL names; a missing or refused token shows the sign-in form. */
async function route() {
  const { flow, view } = location();
  signOut.hidden = !token.get();
  renderNav(flow, view);
  if (!token.get()) return signInPage();
  const entry = VIEWS.find(([name]) => name === view);
  fill(main, h('p', { class: 'loading' }, 'Loading…'));
  try {
    if (!flow) await flowsPage(main);
    else if (entry) await entry[2](main, flow);
    else fill(main, status(`The studio has no view “${view}”.`, 'error'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      token.clear();
      signInError = `Sign-in failed: ${error.message}. Check the token and try again.`;
      renderNav();
      signOut.hidden = true;
      return signInPage();
    }
    fill(main, h('h1', {}, 'Something went wrong'), status(error.message, 'error'));
  }
}

document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href^="/studio"]');
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  go(link.getAttribute('href'));
});
window.addEventListener('popstate', route);
signOut.addEventListener('click', () => {
  token.clear();
  signInError = '';
  route();
});

route();
