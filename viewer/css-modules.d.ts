/** CSS files the viewer imports for their side effect: esbuild bundles them into the page. */
declare module '*.css';
