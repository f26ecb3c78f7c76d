// A module that fails to load or start (an old browser, no WebAssembly, a broken
// download) leaves the loading screen: replace it with what happened. A file, not an
// inline script, so the content-security policy allows no inline script (docs/app.md).
(function () {
  function failed(why) {
    var text = document.getElementById('boot-text');
    if (!text) return; // the app is up: its own errors are its own
    if (text.classList.contains('boot-failed')) return; // the first reason is the cause
    text.classList.add('boot-failed');
    text.textContent =
      'Playbench could not start: ' + why +
      '. Reload the page; if it keeps failing, use a recent browser with WebAssembly enabled.';
  }
  window.addEventListener('unhandledrejection', function (e) {
    failed(String((e.reason && e.reason.message) || e.reason || 'unknown error'));
  });
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) failed('could not download ' + (t.src || t.href));
    else failed(e.message || 'unknown error');
  }, true);
  // The app is built for WebAssembly's 128-bit SIMD (.cargo/config.toml): a module of
  // one function, `i32.const 0; i8x16.splat`, validates only where it is supported.
  var simd = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
    10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
  if (typeof WebAssembly !== 'object') failed('this browser has no WebAssembly');
  else if (!WebAssembly.validate(simd)) {
    failed('this browser has no WebAssembly SIMD (Chrome 91, Firefox 89, Safari 16.4 and later have it)');
  }
})();
