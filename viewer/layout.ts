/**
 * @module layout
 * The page's regions: a top bar (brand, room), the catalog, the stage (canvas, overlay,
 * stats, tools) and the inspector (specimen, parameters, job, links).
 */
import { h } from './dom.ts';
import { signInControl } from './panels/sign-in.ts';

/** The page's regions, as createLayout makes them. */
export type Layout = ReturnType<typeof createLayout>;

const LOGO =
  `<svg viewBox="0 0 32 32" width="22" height="22" aria-hidden="true">` +
  `<rect width="32" height="32" rx="8" fill="#14202e"/><path d="M8 10l8 14 ` +
  `8-14" fill="none" stroke="#5cc8ff" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/></svg>`;

export function createLayout(root: HTMLElement) {
  const brand = h('div', { class: 'brand' });
  brand.innerHTML = LOGO;
  brand.append(h('span', { class: 'brand-name' }, 'vitrine'));
  const hostLabel = h('span', { class: 'host-label' }, window.location.host);
  const roomInput = h('input', {
    id: 'room',
    class: 'text room-input',
    type: 'text',
    spellcheck: false,
    autocomplete: 'off',
    'aria-label': 'Room',
    'data-testid': 'room',
  });
  const topbar = h(
    'header',
    { class: 'topbar' },
    brand,
    hostLabel,
    h('div', { class: 'spacer' }),
    h(
      'label',
      { class: 'room', for: 'room', title: 'Peers in the same room share one result cache' },
      h('span', { class: 'room-label' }, 'Room'),
      roomInput,
    ),
    signInControl(),
  );
  const catalogPane = h('aside', { class: 'catalog-pane', 'aria-label': 'Catalog' });
  const stageHost = h('div', { class: 'stage-host' });
  const stageHud = h('div', { class: 'stage-hud' });
  const stageTools = h('div', { class: 'stage-tools' });
  const stagePane = h('main', { class: 'stage-pane', 'data-testid': 'stage' }, stageHost, stageHud, stageTools);
  const resetButton = h('button', { class: 'button ghost small', type: 'button', 'data-testid': 'reset' }, 'Reset');
  const paramsBody = h('div', { class: 'params-body' });
  const paramsSection = h(
    'section',
    { class: 'section params', hidden: true, 'data-testid': 'params' },
    h('div', { class: 'section-head' }, h('h3', {}, 'Parameters'), resetButton),
    paramsBody,
  );
  const jobSection = h(
    'section',
    { class: 'section job-section', hidden: true },
    h('div', { class: 'section-head' }, h('h3', {}, 'Request')),
  );
  // "Open raw data": its href is the current request's `/data` URL.
  const dataLink = h('a', { class: 'link', target: '_blank', rel: 'noopener', 'data-testid': 'data-link' }, 'Open raw data');
  const linksSection = h('section', { class: 'section links', hidden: true }, dataLink, copyLinkButton());
  const inspector = h('aside', { class: 'inspector', 'aria-label': 'Inspector' }, jobSection, paramsSection, linksSection);
  root.replaceChildren(topbar, catalogPane, stagePane, inspector);
  root.removeAttribute('aria-busy');
  return {
    root,
    topbar,
    roomInput,
    hostLabel,
    catalogPane,
    stagePane,
    stageHost,
    stageHud,
    stageTools,
    inspector,
    paramsSection,
    paramsBody,
    resetButton,
    jobSection,
    linksSection,
    dataLink,
  };
}

/** Copies the page URL (which carries the room, the specimen and its parameters). */
function copyLinkButton(): HTMLButtonElement {
  const copy = h('button', { class: 'button ghost small', type: 'button' }, 'Copy link');
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(window.location.href).then(() => {
      copy.textContent = 'Copied';
      setTimeout(() => (copy.textContent = 'Copy link'), 1200);
    });
  });
  return copy;
}
