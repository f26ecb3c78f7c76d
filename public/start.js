// Starts the app: imports the wasm-bindgen module and instantiates the wasm, both named
// by the <meta> tags Trunk writes (trunk.toml `pattern_script`). Trunk's own loader is
// an inline script, which the content-security policy forbids (docs/app.md).
const named = (name) => document.querySelector(`meta[name="${name}"]`).content;
const { default: init } = await import(named('playbench-js'));
await init({ module_or_path: named('playbench-wasm') });
