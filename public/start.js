// Starts the app: imports a wasm-bindgen module and instantiates its wasm, both named by
// <meta> tags (trunk.toml: `pattern_script` for the full app, the post-build hook for the
// first-load build). Trunk's own loader is an inline script, which the
// content-security policy forbids (docs/app.md).
//
// The home page and /play start the first-load build, a third of the full app's download
// (docs/app.md, "First load"); it hands any other page to the full app
// (`playbenchStartFull`) and asks a hidden full app for the previews of the families it
// does not make (`playbenchPreviews`). Every other page starts the full app.
const named = (name) => document.querySelector(`meta[name="${name}"]`).content;
const start = async (build) => {
  const { default: init } = await import(named(`${build}-js`));
  await init({ module_or_path: named(`${build}-wasm`) });
};
let full;
const startFull = () => (full ??= start('playbench'));
globalThis.playbenchStartFull = startFull;
globalThis.playbenchPreviews = () => {
  // The full app then offers `playbenchPreview` instead of mounting (app/src/app.rs).
  globalThis.playbenchPreviewsOnly = true;
  return startFull().then(() => globalThis.playbenchPreview);
};
const page = location.pathname.replace(/\/+$/, '');
if (page === '' || page === '/play') await start('playbench-first');
else await startFull();
