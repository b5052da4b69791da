/**
 * @module docs-theme
 * The look of `/docs` (Swagger UI): the viewer's dark palette, accent and type, its logo in
 * the top bar, operations listed collapsed by group, and no schema models section. Every
 * asset is served by the host itself; nothing is fetched from the internet.
 */

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="28" height="28"><rect width="32" height="32" rx="8" ` +
  `fill="#14202e"/><path d="M8 10l8 14 8-14" fill="none" stroke="#5cc8ff" stroke-width="3" stroke-linejoin="round" ` +
  `stroke-linecap="round"/></svg>`;

/** Swagger UI styled after the viewer (viewer/styles.css). */
const CSS = `
:root { --bg:#0a0e14; --panel:#121a25; --panel-2:#172131; --line:#1f2b3b; --line-strong:#2b3a4f; --text:#e3eaf3; --dim:#9aa9bc; --faint:#66768b;
  --accent:#5cc8ff; --danger:#ff6b7a; --ok:#7fd6a4; --warn:#f5b74f; --dyn:#b99cff;
  --mono: ui-monospace, 'SF Mono', 'JetBrains Mono', Menlo, Consolas, monospace; --sans: Inter, 'Segoe UI', system-ui, -apple-system,
  'Helvetica Neue', Arial, sans-serif; color-scheme: dark; }
html, body { background: var(--bg); }
body, .swagger-ui, .swagger-ui .info, .swagger-ui .opblock-tag, .swagger-ui .opblock .opblock-summary-description, .swagger-ui table thead tr td,
  .swagger-ui table thead tr th,
.swagger-ui .parameter__name, .swagger-ui .parameter__type, .swagger-ui .response-col_status, .swagger-ui .response-col_links, .swagger-ui .tab li,
  .swagger-ui label, .swagger-ui .btn,
.swagger-ui .opblock-description-wrapper p, .swagger-ui .opblock-external-docs-wrapper p, .swagger-ui .opblock-title_normal p,
  .swagger-ui .markdown p, .swagger-ui .renderedMarkdown p,
.swagger-ui .info .title, .swagger-ui .info li, .swagger-ui .info p, .swagger-ui .info table, .swagger-ui .scheme-container .schemes>label,
  .swagger-ui .model, .swagger-ui .model-title,
.swagger-ui section.models h4, .swagger-ui .opblock .opblock-section-header h4, .swagger-ui .responses-inner h4, .swagger-ui .responses-inner h5,
  .swagger-ui .loading-container .loading:after { color: var(--text); font-family: var(--sans); }
.swagger-ui .topbar { background: #0f151e; border-bottom: 1px solid var(--line); padding: 8px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar a { max-width: none; }
.swagger-ui .info { margin: 28px 0 18px; }
.swagger-ui .info .title { font-size: 26px; letter-spacing: -0.01em; }
.swagger-ui .info .title small { background: var(--panel-2); border: 1px solid var(--line-strong); }
.swagger-ui .info .title small pre { color: var(--dim); }
.swagger-ui .info .title small.version-stamp { background: rgba(92,200,255,.14); border-color: var(--accent); }
.swagger-ui .info .title small.version-stamp pre { color: var(--accent); }
.swagger-ui .info a, .swagger-ui a.nostyle, .swagger-ui .info .base-url { color: var(--accent); }
.swagger-ui .scheme-container { background: var(--bg); box-shadow: none; border-bottom: 1px solid var(--line); }
.swagger-ui .opblock-tag { border-bottom: 1px solid var(--line); font-size: 18px; }
.swagger-ui .opblock-tag small { color: var(--dim); text-transform: none; }
.swagger-ui .opblock-tag:hover { background: var(--panel); }
.swagger-ui .opblock { background: var(--panel); border: 1px solid var(--line-strong); border-radius: 10px; box-shadow: none; }
.swagger-ui .opblock .opblock-summary { border-color: var(--line); }
.swagger-ui .opblock .opblock-summary-path, .swagger-ui .opblock .opblock-summary-path__deprecated { color: var(--text); font-family: var(--mono); }
.swagger-ui .opblock .opblock-summary-description { color: var(--dim); }
.swagger-ui .opblock .opblock-summary-method { border-radius: 6px; font-family: var(--mono); text-shadow: none; min-width: 70px; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #2f8fcf; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #3c9d6e; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c94b5a; }
.swagger-ui .opblock.opblock-get, .swagger-ui .opblock.opblock-post, .swagger-ui .opblock.opblock-delete { background: var(--panel); }
.swagger-ui .opblock.opblock-get { border-color: rgba(92,200,255,.35); }
.swagger-ui .opblock.opblock-post { border-color: rgba(127,214,164,.35); }
.swagger-ui .opblock.opblock-delete { border-color: rgba(255,107,122,.35); }
.swagger-ui .opblock .opblock-section-header { background: var(--panel-2); box-shadow: none; }
.swagger-ui .opblock-body, .swagger-ui .opblock-description-wrapper, .swagger-ui .responses-wrapper, .swagger-ui .parameters-container
  { background: var(--panel); }
.swagger-ui .opblock-body pre.microlight, .swagger-ui .highlight-code > .microlight, .swagger-ui .model-box, .swagger-ui section.models,
  .swagger-ui section.models .model-container { background: #0b1018 !important; border-color: var(--line) !important; border-radius: 8px; }
.swagger-ui table tbody tr td, .swagger-ui .parameters-col_description, .swagger-ui .response-col_description { color: var(--dim); border-color: var(--line); }
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated, .swagger-ui .prop-format, .swagger-ui .model .property.primitive { color: var(--faint); }
.swagger-ui .parameter__name.required:after, .swagger-ui .parameter__name.required span { color: var(--danger); }
.swagger-ui .prop-type { color: var(--dyn); }
.swagger-ui input[type=text], .swagger-ui textarea, .swagger-ui select, .swagger-ui input[type=file] { background: #0b1018; color: var(--text);
  border: 1px solid var(--line-strong); border-radius: 6px; }
.swagger-ui .btn { background: var(--panel-2); border: 1px solid var(--line-strong); border-radius: 6px; box-shadow: none; color: var(--text); }
.swagger-ui .btn.execute { background: var(--accent); border-color: var(--accent); color: #04121c; }
.swagger-ui .btn.cancel { border-color: var(--danger); color: var(--danger); }
.swagger-ui .btn.try-out__btn { border-color: var(--accent); color: var(--accent); }
.swagger-ui svg:not(:root) { fill: var(--dim); }
.swagger-ui .expand-operation svg, .swagger-ui .opblock-control-arrow svg { fill: var(--dim); }
.swagger-ui .tab li button.tablinks { color: var(--dim); }
.swagger-ui .tab li.active button.tablinks { color: var(--text); }
.swagger-ui .response-control-media-type__accept-message { color: var(--ok); }
.swagger-ui .copy-to-clipboard { background: var(--panel-2); }
.swagger-ui .wrapper { max-width: 1180px; }
`;

/** The @fastify/swagger-ui options that give `/docs` its look. */
export const DOCS_THEME = {
  theme: { title: 'vitrine API', css: [{ filename: 'vitrine.css', content: CSS }] },
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/', target: '_self' as const },
  uiConfig: {
    docExpansion: 'list' as const,
    defaultModelsExpandDepth: -1,
    deepLinking: true,
    displayRequestDuration: true,
    filter: true,
    syntaxHighlight: { activate: true, theme: 'nord' as const },
  },
};
